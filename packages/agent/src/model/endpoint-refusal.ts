import Anthropic from '@anthropic-ai/sdk';
import { ConfigError, UnauthorizedError, type McpAgentError } from '@mcp-agent/core';

// What endpoints without function calling say when they refuse tools.
const TOOLS = /\btools?\b|tool[_ ]choice|function[_ ]call|tool_use/i;

/**
 * An Anthropic-compatible endpoint's 4xx answer as an error that names the endpoint, the model,
 * the cause and the fix (as the OpenAI adapter names a refusal of tools): a refused key is
 * `UNAUTHORIZED`, a refused request (400, 404, 422) a `ConfigError`. Anything else, a 429 or a
 * 5xx the SDK already retried included, is left as it was.
 */
export function anthropicRefusal(
  error: unknown,
  endpoint: string,
  model: string,
): McpAgentError | undefined {
  if (!(error instanceof Anthropic.APIError) || error.status === undefined) return undefined;
  const { status } = error;
  const said = `"${error.message.slice(0, 300)}"`;
  const details = { endpoint, model, status };
  if (status === 401 || status === 403)
    return new UnauthorizedError(
      `The model endpoint ${endpoint} refused the key (HTTP ${status}): ${said}. Set ANTHROPIC_API_KEY to a key this endpoint accepts.`,
      { cause: error, details },
    );
  if (status !== 400 && status !== 404 && status !== 422) return undefined;
  if (TOOLS.test(error.message))
    return new ConfigError(
      `The model endpoint ${endpoint} (model "${model}") refused tools (HTTP ${status}): ${said}. mcp-agent needs tool use: use a model and endpoint that support it.`,
      { cause: error, details },
    );
  return new ConfigError(
    `The model endpoint ${endpoint} (model "${model}") refused the request (HTTP ${status}): ${said}. Check the model name (ANTHROPIC_MODEL) and that ANTHROPIC_BASE_URL is an endpoint of the Anthropic Messages API (its /v1/messages).`,
    { cause: error, details },
  );
}

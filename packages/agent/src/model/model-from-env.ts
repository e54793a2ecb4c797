import { ConfigError } from '@mcp-agent/core';
import type { ModelClient } from './model-client.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** The adapters `MCP_AGENT_MODEL` can name, before the colon (`openai:<model>`). */
export type ModelProvider = 'anthropic' | 'openai';

/** Which adapter and model the environment names, or what is missing. */
type ModelChoice =
  | { readonly provider: ModelProvider; readonly model: string | undefined }
  | { readonly problem: string };

const HOW =
  'Set MCP_AGENT_MODEL=anthropic:<model> with ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL for another Anthropic-compatible endpoint), or MCP_AGENT_MODEL=openai:<model> with OPENAI_API_KEY and/or OPENAI_BASE_URL (vLLM, Ollama, llama.cpp, LM Studio, LiteLLM).';

// `MCP_AGENT_MODEL` decides; without it, the adapter whose variables are set (Anthropic first,
// as before there was a choice).
function chooseModel(env: Environment): ModelChoice {
  const named = env.MCP_AGENT_MODEL?.trim() ?? '';
  if (named === '') {
    if (set(env.ANTHROPIC_API_KEY)) return { provider: 'anthropic', model: undefined };
    if (set(env.OPENAI_API_KEY) || set(env.OPENAI_BASE_URL))
      return { provider: 'openai', model: undefined };
    return { problem: `No model endpoint is configured. ${HOW}` };
  }
  const colon = named.indexOf(':');
  const provider = colon < 0 ? named : named.slice(0, colon);
  const model = colon < 0 ? undefined : named.slice(colon + 1).trim() || undefined;
  if (provider === 'anthropic') {
    return set(env.ANTHROPIC_API_KEY)
      ? { provider, model }
      : {
          problem: `MCP_AGENT_MODEL=${named.slice(0, 100)} needs ANTHROPIC_API_KEY, which is not set (ANTHROPIC_BASE_URL for another Anthropic-compatible endpoint).`,
        };
  }
  if (provider === 'openai') {
    return set(env.OPENAI_API_KEY) || set(env.OPENAI_BASE_URL)
      ? { provider, model }
      : {
          problem: `MCP_AGENT_MODEL=${named.slice(0, 100)} needs OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible endpoint such as http://127.0.0.1:11434/v1), and neither is set.`,
        };
  }
  return {
    problem: `MCP_AGENT_MODEL="${named.slice(0, 100)}" names no known provider: use anthropic:<model> or openai:<model>. ${HOW}`,
  };
}

function set(value: string | undefined): boolean {
  return (value ?? '') !== '';
}

/**
 * True when `env` configures a model endpoint completely (see {@link createModelClientFromEnv}):
 * what a host checks to decide whether to offer tasks at all (the gateway's `execute_task`).
 */
export function isModelConfigured(env: Environment = process.env): boolean {
  return !('problem' in chooseModel(env));
}

/** Options of {@link createModelClientFromEnv} beyond what the environment says. */
export interface ModelFromEnvOptions {
  /**
   * For an OpenAI-compatible endpoint: whether a first answer without a tool call is asked
   * again with a tool required (`OpenAIModelClientOptions.verifyToolSupport`); default true.
   * A benchmark turns it off: a right answer with no tool call (a request no tool can do) must
   * not cost a second request, nor fail on an endpoint that ignores `tool_choice`.
   */
  readonly verifyToolSupport?: boolean;
}

/**
 * The model client the environment names: `MCP_AGENT_MODEL=anthropic:<model>|openai:<model>`
 * (without it, Anthropic when `ANTHROPIC_API_KEY` is set, else OpenAI-compatible when
 * `OPENAI_API_KEY` or `OPENAI_BASE_URL` is). What is missing is one `ConfigError` naming it. The
 * adapter (and its SDK) is loaded only here, when a task needs it, so importing the agent never
 * loads a model SDK.
 *
 * @throws ConfigError (`CONFIG_INVALID`) saying which variable is missing or wrong and how to
 * set it: no endpoint configured, an unknown provider, or a provider without its key or URL.
 *
 * @example
 * ```ts
 * // A local model through Ollama's OpenAI-compatible endpoint, no key needed.
 * const model = await createModelClientFromEnv({
 *   MCP_AGENT_MODEL: 'openai:qwen3:8b',
 *   OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
 * });
 * ```
 */
export async function createModelClientFromEnv(
  env: Environment = process.env,
  options: ModelFromEnvOptions = {},
): Promise<ModelClient> {
  const choice = chooseModel(env);
  if ('problem' in choice) throw new ConfigError(choice.problem);
  if (choice.provider === 'openai') {
    const { createOpenAIModelClient } = await import('./openai-model-client.js');
    return createOpenAIModelClient({
      env,
      ...(choice.model === undefined ? {} : { model: choice.model, modelFrom: 'MCP_AGENT_MODEL' }),
      ...(options.verifyToolSupport === undefined
        ? {}
        : { verifyToolSupport: options.verifyToolSupport }),
    });
  }
  const { createAnthropicModelClient } = await import('./anthropic-model-client.js');
  return createAnthropicModelClient({
    env,
    ...(choice.model === undefined ? {} : { model: choice.model, modelFrom: 'MCP_AGENT_MODEL' }),
  });
}

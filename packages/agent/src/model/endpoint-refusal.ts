import { ConfigError, UnauthorizedError, type McpAgentError } from '@mcp-agent/core';

/**
 * Where one adapter's settings came from, so that the fix a refusal suggests names the setting
 * actually in use (the variable that chose the model, the one the key came from).
 */
export interface EndpointSettings {
  /** The endpoint's base URL. */
  readonly endpoint: string;
  /** Which API it speaks, in a user's words: `Anthropic Messages API (its /v1/messages)`. */
  readonly api: string;
  /** The model asked for. */
  readonly model: string;
  /**
   * What chose the model: a variable (`MCP_AGENT_MODEL`, `ANTHROPIC_MODEL`), `the model option`,
   * or `undefined` for the adapter's default.
   */
  readonly modelFrom: string | undefined;
  /** What gave the key: a variable or `the apiKey option`; `undefined` when none was sent. */
  readonly keyFrom: string | undefined;
  /** The variable that takes this adapter's key (`ANTHROPIC_API_KEY`). */
  readonly keyVariable: string;
  /** The variable that names another endpoint (`ANTHROPIC_BASE_URL`). */
  readonly endpointVariable: string;
  /** How to choose a model for this adapter (`MCP_AGENT_MODEL=anthropic:<model>`). */
  readonly modelVariable: string;
  /** How to get tools accepted on this kind of endpoint. */
  readonly toolsFix: string;
}

/** What an endpoint's refusal is about, read from its status and from what its body says. */
export type RefusalKind =
  'key' | 'model-unknown' | 'no-route' | 'tools-unsupported' | 'tool-definition' | 'request';

// The body says the endpoint (or model) takes no tools at all: Ollama's "does not support
// tools", vLLM's "auto" tool choice requiring --enable-auto-tool-choice, llama.cpp's --jinja.
const TOOLS_UNSUPPORTED =
  /\b(?:does not|doesn't|do not|don't|cannot|can't)\s+(?:support|use|accept)\s+(?:function\s+|tool\s+)?(?:tools|tool use|tool calling|tool calls|function calling|functions)\b|\b(?:tools?|tool use|tool calling|function calling)\s+(?:is|are)\s+not\s+(?:supported|enabled|available)\b|tool[_ ]choice.*requires|--enable-auto-tool-choice|--jinja\b/i;
// The body says a tool of the request is malformed: its JSON schema, or one tool by position or
// name (Anthropic "tools.3.custom.input_schema: JSON schema is invalid", OpenAI "Invalid schema
// for function 'x'", Gemini "function_declarations[0].parameters").
const TOOL_DEFINITION =
  /\bschema\b|\btools?\s*(?:\.|\[)\s*\d+|\bfunction\s+'[^']+'|function_declarations|\binput_schema\b/i;
// The body says the model itself is unknown (not merely that a model's limit was passed).
const MODEL_UNKNOWN =
  /^\s*(?:\d{3}\s+)?model:|\bmodel\b[^.]{0,80}\b(?:not found|does not exist|doesn't exist|not exist|unknown|is not (?:available|supported|served))|\b(?:unknown|invalid|no such|not found:?)\s+model\b/i;

/** Classifies an endpoint's refusal by its HTTP status and what its body says. */
export function refusalKind(status: number, said: string): RefusalKind | undefined {
  if (status === 401 || status === 403) return 'key';
  if (status !== 400 && status !== 404 && status !== 422 && status < 500) return undefined;
  if (TOOLS_UNSUPPORTED.test(said)) return 'tools-unsupported';
  // A 5xx is the endpoint's own failure, retried by the SDK, unless it says it takes no tools.
  if (status >= 500) return undefined;
  if (TOOL_DEFINITION.test(said)) return 'tool-definition';
  if (MODEL_UNKNOWN.test(said)) return 'model-unknown';
  return status === 404 ? 'no-route' : 'request';
}

/**
 * A model endpoint's refusal (`status`, and the message its body carries) as an error that
 * names the endpoint, the model, what the body said and the fix, by what the body says: a
 * refused key is `UNAUTHORIZED` naming the key's variable; an unknown model, a wrong endpoint,
 * tools the endpoint does not take, a tool definition it does not accept, or any other refused
 * request a `ConfigError`. `undefined` for anything else (a 429, a 5xx the SDK retried), which
 * the caller leaves as it was. `toolNames` are the request's tools in order, to name the one a
 * body points at by position.
 */
export function endpointRefusal(
  status: number,
  message: string,
  settings: EndpointSettings,
  toolNames: readonly string[],
  cause: unknown,
): McpAgentError | undefined {
  const kind = refusalKind(status, message);
  if (kind === undefined) return undefined;
  const { endpoint, model } = settings;
  const said = `"${message.slice(0, 300)}"`;
  const details = { endpoint, model, status, refusal: kind };
  const where = `The model endpoint ${endpoint} (model "${model}")`;
  switch (kind) {
    case 'key':
      return new UnauthorizedError(keyRefusal(status, said, settings), {
        cause,
        details: { ...details, keyFrom: settings.keyFrom ?? null },
      });
    case 'model-unknown':
      return new ConfigError(
        `${where} does not know the model (HTTP ${status}): ${said}. ${modelFix(settings)}`,
        { cause, details: { ...details, modelFrom: settings.modelFrom ?? null } },
      );
    case 'no-route':
      return new ConfigError(
        `The model endpoint ${endpoint} answered that it has no such route (HTTP ${status}): ${said}. Check ${settings.endpointVariable}: it must be an endpoint of the ${settings.api}.`,
        { cause, details },
      );
    case 'tools-unsupported':
      return new ConfigError(
        `${where} refused tools (HTTP ${status}): ${said}. ${settings.toolsFix}`,
        { cause, details },
      );
    case 'tool-definition': {
      const tool = toolNamed(message, toolNames);
      return new ConfigError(
        `${where} refused the definition of ${tool === undefined ? 'a tool' : `the tool "${tool}"`} in the request (HTTP ${status}): ${said}. The endpoint takes tools, but not this tool's input schema as written: leave the server that declares it out of the task (allowServers), or use an endpoint that accepts standard JSON Schema.`,
        { cause, details: { ...details, ...(tool === undefined ? {} : { tool }) } },
      );
    }
    case 'request':
      return new ConfigError(
        `${where} refused the request (HTTP ${status}): ${said}. Check that ${settings.endpointVariable} is an endpoint of the ${settings.api} and that the model (${settings.modelFrom ?? 'the default'}) is one it serves.`,
        { cause, details },
      );
  }
}

function keyRefusal(status: number, said: string, settings: EndpointSettings): string {
  const { endpoint, keyFrom, keyVariable } = settings;
  if (keyFrom === undefined)
    return `The model endpoint ${endpoint} wants a key and none was sent (HTTP ${status}): ${said}. Set ${keyVariable} to a key this endpoint accepts.`;
  const fix =
    keyFrom === 'the apiKey option'
      ? 'Pass a key this endpoint accepts as the apiKey option'
      : `Set ${keyFrom} to a key this endpoint accepts`;
  return `The model endpoint ${endpoint} refused the key from ${keyFrom} (HTTP ${status}): ${said}. ${fix}.`;
}

function modelFix(settings: EndpointSettings): string {
  const { modelFrom, modelVariable } = settings;
  if (modelFrom === undefined)
    return `No setting named a model, so the adapter's default was asked for: set ${modelVariable} to a model this endpoint serves.`;
  if (modelFrom === 'the model option')
    return 'It was given as the model option: pass a model this endpoint serves.';
  return `${modelFrom} chose it: set ${modelFrom} to a model this endpoint serves.`;
}

// The tool a body points at: by name (`function 'x'`, a quoted name of the request's) or by
// position (`tools.3`, `tools[3]`, `function_declarations[3]`).
function toolNamed(message: string, toolNames: readonly string[]): string | undefined {
  const quoted = /\bfunction\s+'([^']+)'/i.exec(message)?.[1];
  if (quoted !== undefined && toolNames.includes(quoted)) return quoted;
  const index = /\b(?:tools|function_declarations)\s*(?:\.|\[)\s*(\d+)/i.exec(message)?.[1];
  return index === undefined ? undefined : toolNames[Number(index)];
}

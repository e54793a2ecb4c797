import type { JsonObject, Usage } from '@mcp-agent/core';

/** An image in a tool result: base64 data of a type both APIs read (png, jpeg, gif, webp). */
export interface ModelImage {
  readonly mimeType: string;
  readonly data: string;
}

/** A block of a message, in the shape the Messages API uses. */
export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      /** The parsed arguments, or an {@link InvalidToolInput} when they did not parse. */
      readonly input: unknown;
    }
  | {
      readonly type: 'tool_result';
      readonly tool_use_id: string;
      readonly content: string;
      readonly is_error?: boolean;
      /** Images the result shows after its text (the text describes each where it was). */
      readonly images?: readonly ModelImage[];
    };

/**
 * The input of a tool use whose arguments did not parse (an OpenAI-compatible endpoint sends
 * them as a JSON string, and a model may write broken JSON). The session refuses it with a
 * message naming the parse error, so the model can send the call again; adapters send `raw`
 * back to the endpoint as the model wrote it.
 */
export class InvalidToolInput {
  constructor(
    /** The arguments as the model wrote them. */
    readonly raw: string,
    /** Why they did not parse. */
    readonly reason: string,
  ) {}

  /** What the trajectory and events show: the start of what the model wrote. */
  toJSON(): { invalid_json: string } {
    return { invalid_json: this.raw.slice(0, 1_000) };
  }
}

/** One turn of the conversation. */
export interface ModelMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly ContentBlock[];
}

/** A tool the model may use (only ever the agent's meta-tools). */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

/** One generation request. */
export interface ModelRequest {
  /** The system prompt; the adapter marks it for prompt caching. */
  readonly system: string;
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ModelTool[];
  readonly maxTokens: number;
  readonly signal?: AbortSignal;
}

/** What the model answered. */
export interface ModelResponse {
  readonly content: readonly ContentBlock[];
  /** `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, or whatever the endpoint says. */
  readonly stopReason: string | null;
  readonly usage: Usage;
}

/**
 * Our model interface: small, explicit, versioned, so adapters and fakes stay easy to write.
 * The agent never sees an SDK type.
 */
export interface ModelClient {
  readonly specificationVersion: 'v1';
  readonly modelId: string;
  /** Whether the model reads images in tool results; default true. Audio is never sent. */
  readonly images?: boolean;
  /**
   * One model turn: the messages and tools in, the text and tool calls out. A failure is
   * thrown; the agent ends the task with it as a structured error (`toMcpAgentError`), so an
   * adapter throws a `McpAgentError` with a stable code where it knows one.
   */
  generate(request: ModelRequest): Promise<ModelResponse>;
}

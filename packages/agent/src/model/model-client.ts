import type { JsonObject, Usage } from '@mcp-agent/core';

/** A block of a message, in the shape the Messages API uses. */
export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
    }
  | {
      readonly type: 'tool_result';
      readonly tool_use_id: string;
      readonly content: string;
      readonly is_error?: boolean;
    };

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
  generate(request: ModelRequest): Promise<ModelResponse>;
}

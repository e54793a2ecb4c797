import type { JsonObject, Usage } from '@mcp-agent/core';

/** An image in a tool result: base64 data of a type both APIs read (png, jpeg, gif, webp). */
export interface ModelImage {
  readonly mimeType: string;
  readonly data: string;
}

/**
 * A block of a message, in the shape the Messages API uses (the OpenAI adapter converts it to
 * Chat Completions and back).
 */
export type ContentBlock =
  | {
      /** Words: the model's answer or reasoning, or the user's task. */
      readonly type: 'text';
      /** The words themselves. */
      readonly text: string;
    }
  | {
      /** A call the model makes; the next user message answers it with a `tool_result`. */
      readonly type: 'tool_use';
      /** The endpoint's id of the call, which its `tool_result` repeats. */
      readonly id: string;
      /** The tool called: a meta-tool's name, or a direct tool's `<server>__<tool>`. */
      readonly name: string;
      /** The parsed arguments, or an `InvalidToolInput` (`src/input/`) when they did not parse. */
      readonly input: unknown;
    }
  | {
      /** What a call gave back, sent to the model in the next user message. */
      readonly type: 'tool_result';
      /** The `id` of the `tool_use` this answers. */
      readonly tool_use_id: string;
      /** The call's observation as JSON text. */
      readonly content: string;
      /** True when the call failed; `content` then carries `{"error": {"code", "message"}}`. */
      readonly is_error?: boolean;
      /** Images the result shows after its text (the text describes each where it was). */
      readonly images?: readonly ModelImage[];
    };

/** One turn of the conversation. */
export interface ModelMessage {
  /** `user` for the task and tool results, `assistant` for what the model said and called. */
  readonly role: 'user' | 'assistant';
  /** The turn's blocks, in order. */
  readonly content: readonly ContentBlock[];
}

/** A tool the model may use: a meta-tool, or a server's tool under its own name (`all-tools`). */
export interface ModelTool {
  /** What the model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: string;
  /** What the tool does and when to use it, as the model reads it. */
  readonly description: string;
  /** The JSON Schema of its arguments (an object schema). */
  readonly inputSchema: JsonObject;
}

/** One generation request. */
export interface ModelRequest {
  /** The system prompt; the adapter marks it for prompt caching. */
  readonly system: string;
  /** The conversation so far, oldest first, starting with the user's task. */
  readonly messages: readonly ModelMessage[];
  /** The tools offered in this turn; may be empty. */
  readonly tools: readonly ModelTool[];
  /** The most output tokens of this turn: what is left of the task's output budget, capped. */
  readonly maxTokens: number;
  /** Aborted when the task is cancelled; the adapter then aborts its request. */
  readonly signal?: AbortSignal;
}

/** What the model answered. */
export interface ModelResponse {
  /** Text and `tool_use` blocks, in the order the model wrote them. */
  readonly content: readonly ContentBlock[];
  /** `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`, or whatever the endpoint says. */
  readonly stopReason: string | null;
  /** Tokens of this turn (cache reads and writes apart), counted against budget and quotas. */
  readonly usage: Usage;
}

/**
 * Our model interface: small, explicit, versioned, so adapters and fakes stay easy to write.
 * The agent never sees an SDK type. The adapters are `createAnthropicModelClient`
 * (`@mcp-agent/agent/anthropic`) and `createOpenAIModelClient` (`@mcp-agent/agent/openai`);
 * `MockModelClient` (`@mcp-agent/agent/testing`) plays a script.
 *
 * @example
 * ```ts
 * // An adapter of your own: one method from our messages to the endpoint's and back.
 * const model: ModelClient = {
 *   specificationVersion: 'v1',
 *   modelId: 'my-model',
 *   async generate({ system, messages, tools, maxTokens, signal }) {
 *     const reply = await myEndpoint.chat({ system, messages, tools, maxTokens }, { signal });
 *     return { content: reply.blocks, stopReason: reply.stop, usage: reply.usage };
 *   },
 * };
 * const result = await agent.executeTask('…', 'alice', { model });
 * ```
 */
export interface ModelClient {
  /** The interface's version, so a future `v2` can be told apart from this one. */
  readonly specificationVersion: 'v1';
  /** The model's id as its endpoint knows it: the key of its price and of usage records. */
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

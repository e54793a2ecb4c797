import type { JsonObject } from './json.js';
import type { ToolId } from './tool-id.js';

/** A JSON Schema document, kept as the server sent it. */
export type JsonSchema = JsonObject;

/** MCP tool annotations: hints from the server, never trusted for policy on their own. */
export interface ToolAnnotations {
  /** A display name for people; {@link ToolSpec.title} takes precedence when both are set. */
  readonly title?: string;
  /** The server says the tool changes nothing (MCP's default: false). */
  readonly readOnlyHint?: boolean;
  /** The server says a change may destroy or overwrite data (MCP's default: true). */
  readonly destructiveHint?: boolean;
  /** The server says a repeat call with the same arguments changes nothing more (default false). */
  readonly idempotentHint?: boolean;
  /** The server says the tool reaches outside itself, the web for example (default true). */
  readonly openWorldHint?: boolean;
}

/** One tool of one server, as mcp-agent knows it. */
export interface ToolSpec {
  /** `<serverId>.<name>`: how the model, code and callers name this tool. */
  readonly id: ToolId;
  /** The server that serves it. */
  readonly serverId: string;
  /** The name the MCP server uses. */
  readonly name: string;
  /** A display name for people, when the server gives one. */
  readonly title?: string;
  /** What the server says the tool does (`''` when nothing); searched and shown to the model. */
  readonly description: string;
  /** The JSON Schema its arguments must match; arguments are checked against it before a call. */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema of its `structuredContent`, when the server declares one. */
  readonly outputSchema?: JsonSchema;
  /** The server's hints; shown to the model and to policies, never trusted alone. */
  readonly annotations?: ToolAnnotations;
  /**
   * The tool's `execution.taskSupport` when it is not `forbidden`: `required` tools run only as
   * MCP tasks (the pool calls them so), `optional` ones either way.
   */
  readonly taskSupport?: 'optional' | 'required';
}

import type { JsonObject } from './json.js';
import type { ToolId } from './tool-id.js';

/** A JSON Schema document, kept as the server sent it. */
export type JsonSchema = JsonObject;

/** MCP tool annotations: hints from the server, never trusted for policy on their own. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One tool of one provider, as mcp-agent knows it. */
export interface ToolSpec {
  readonly id: ToolId;
  readonly providerId: string;
  /** The name the MCP server uses. */
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /**
   * The tool's `execution.taskSupport` when it is not `forbidden`: `required` tools run only as
   * MCP tasks (the pool calls them so), `optional` ones either way.
   */
  readonly taskSupport?: 'optional' | 'required';
}

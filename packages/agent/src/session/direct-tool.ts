import type { JsonObject } from '@mcp-agent/core';

/** A server's tool given to the model under its own name (`all-tools`). */
export interface DirectTool {
  /** `<server>__<tool>`, in the characters and length both model APIs accept. */
  readonly name: string;
  /** The tool's id (`<server>.<tool>`), which the call is dispatched to. */
  readonly toolId: string;
  /** The server's own description of the tool, verbatim. */
  readonly description: string;
  /** The server's own JSON Schema of its arguments, verbatim. */
  readonly inputSchema: JsonObject;
}

import {
  formatToolId,
  type JsonObject,
  type ToolAnnotations,
  type ToolSpec,
} from '@mcp-agent/core';

/** Reads a raw MCP tool object into a `ToolSpec`, tolerating missing or odd fields. */
export function toToolSpec(serverId: string, raw: JsonObject): ToolSpec {
  const name = String(raw.name);
  const object = (value: unknown): JsonObject | undefined =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  const title = typeof raw.title === 'string' ? raw.title : undefined;
  const outputSchema = object(raw.outputSchema);
  const annotations = object(raw.annotations) as ToolAnnotations | undefined;
  const taskSupport = object(raw.execution)?.taskSupport;
  return {
    id: formatToolId(serverId, name),
    serverId,
    name,
    description: typeof raw.description === 'string' ? raw.description : '',
    inputSchema: object(raw.inputSchema) ?? { type: 'object' },
    ...(title === undefined ? {} : { title }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(annotations === undefined ? {} : { annotations }),
    ...(taskSupport === 'required' || taskSupport === 'optional' ? { taskSupport } : {}),
  };
}

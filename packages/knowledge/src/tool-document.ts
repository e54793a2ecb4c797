import type { ToolSpec } from '@mcp-agent/core';
import type { SearchDocument } from './search/search-document.js';

/** A `ToolSpec` as a search document. */
export function toDocument(spec: ToolSpec): SearchDocument {
  const properties = spec.inputSchema.properties;
  const entries =
    properties !== null && typeof properties === 'object' && !Array.isArray(properties)
      ? Object.entries(properties)
      : [];
  return {
    id: spec.id,
    server: spec.serverId,
    name: spec.name,
    description: spec.description || spec.title || '',
    parameters: entries.map(([name, schema]) => {
      const description = (schema as { description?: unknown } | null)?.description;
      return typeof description === 'string' ? { name, description } : { name };
    }),
  };
}

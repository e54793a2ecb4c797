import type { ToolSpec } from '@mcp-agent/core';
import type { SearchDocument, SearchParameter } from './search/search-document.js';

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
    parameters: entries.map(([name, schema]) => searchParameter(name, schema)),
  };
}

/**
 * One input property as search reads it: its name, its description and the strings its `enum`
 * lists (what it accepts is part of what a tool serves: a code runner's "ruby").
 */
export function searchParameter(name: string, schema: unknown): SearchParameter {
  const { description, enum: values } = (schema ?? {}) as { description?: unknown; enum?: unknown };
  const strings = Array.isArray(values)
    ? values.filter((value): value is string => typeof value === 'string')
    : [];
  return {
    name,
    ...(typeof description === 'string' ? { description } : {}),
    ...(strings.length > 0 ? { values: strings } : {}),
  };
}

import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '@mcp-agent/core';

// A text block with nothing but its type and text: what most tools answer with. The SDK's schema
// takes it as it is (its text blocks are strict objects, so a key more would be stripped there).
const isBareText = (block: unknown): boolean => {
  if (!isJsonObject(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
  for (const key in block) if (key !== 'type' && key !== 'text') return false;
  return true;
};

/**
 * A server's tools/call result, as the SDK's `CallToolResultSchema` would give it (whose parse
 * walks and copies every content block of every call): the common
 * shape (text blocks alone, no `_meta`) is checked by hand and kept as it came, never looser
 * than the schema; anything else (images, resources, annotations, a missing `content`) is
 * parsed by the schema itself, which fills in its defaults or throws its own error.
 */
export function checkedCallResult(value: unknown): CallToolResult {
  if (
    isJsonObject(value) &&
    value._meta === undefined &&
    Array.isArray(value.content) &&
    value.content.every(isBareText) &&
    (value.structuredContent === undefined || isJsonObject(value.structuredContent)) &&
    (value.isError === undefined || typeof value.isError === 'boolean')
  )
    return value as CallToolResult;
  return CallToolResultSchema.parse(value);
}

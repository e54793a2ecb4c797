import type { JsonValue } from '@mcp-agent/core';

/**
 * JSON.parse into null-prototype objects: a `__proto__` key from sandboxed code stays a plain
 * property and can never reach `Object.prototype` through a later merge.
 */
export function parseUntrusted(text: string): JsonValue {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const copy = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) copy[key] = (value as Record<string, unknown>)[key];
    return copy;
  }) as JsonValue;
}

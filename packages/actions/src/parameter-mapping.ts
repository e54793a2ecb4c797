import type { JsonValue } from '@mcp-agent/core';

/** How a legacy call's arguments become what the server wants; declared in config, not code. */
export interface ParameterMapping {
  /** Old name → new name. */
  readonly rename?: Readonly<Record<string, string>>;
  /** Values for parameters the caller left out. */
  readonly defaults?: Readonly<Record<string, JsonValue>>;
  /** Parameters removed before the call. */
  readonly drop?: readonly string[];
}

/** Mappings by server, then tool name. */
export type ServerMappings = Readonly<Record<string, Readonly<Record<string, ParameterMapping>>>>;

/** Applies a mapping: drop, then rename (a present new name wins), then defaults. */
export function applyMapping(
  args: Record<string, unknown>,
  mapping: ParameterMapping | undefined,
): Record<string, unknown> {
  if (mapping === undefined) return args;
  const out: Record<string, unknown> = {};
  const drop = new Set(mapping.drop ?? []);
  for (const [key, value] of Object.entries(args)) {
    if (drop.has(key)) continue;
    const target = mapping.rename?.[key] ?? key;
    if (target !== key && Object.hasOwn(args, target)) continue;
    Object.defineProperty(out, target, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  for (const [key, value] of Object.entries(mapping.defaults ?? {})) {
    if (!Object.hasOwn(out, key)) out[key] = value;
  }
  return out;
}

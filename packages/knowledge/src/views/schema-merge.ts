import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { asObject } from './schema-references.js';

const LOWER_BOUNDS = new Set([
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
]);
const UPPER_BOUNDS = new Set([
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
]);
// Annotations: the first part's wins, as a reader takes the outermost description.
const FIRST_WINS = new Set(['description', 'title', 'default', 'examples', '$schema', '$id']);

/**
 * Two schemas that must both hold (`allOf`) as one, when they combine keyword by keyword:
 * properties joined (a name in both holds both), `required` united, `type` and `enum`
 * intersected, bounds tightened. Returns undefined when some keyword cannot combine (two
 * `anyOf`s, two patterns): the caller then shows an intersection.
 */
export function mergeSchemas(a: JsonObject, b: JsonObject): JsonObject | undefined {
  const merged: JsonObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const current = merged[key];
    if (current === undefined || FIRST_WINS.has(key)) {
      if (current === undefined) merged[key] = value;
      continue;
    }
    const combined = combine(key, current, value);
    if (combined === undefined) return undefined;
    merged[key] = combined;
  }
  return merged;
}

function combine(key: string, a: JsonValue, b: JsonValue): JsonValue | undefined {
  if (same(a, b)) return a;
  if (key === 'properties' || key === 'patternProperties') {
    const left = asObject(a);
    const right = asObject(b);
    if (left === undefined || right === undefined) return undefined;
    const joined: JsonObject = { ...left };
    for (const [name, schema] of Object.entries(right))
      joined[name] = joined[name] === undefined ? schema : { allOf: [joined[name], schema] };
    return joined;
  }
  if (key === 'required' && Array.isArray(a) && Array.isArray(b))
    return [...new Set([...a, ...b].filter((n) => typeof n === 'string'))];
  if (key === 'type') {
    const left = Array.isArray(a) ? a : [a];
    const right = new Set(Array.isArray(b) ? b : [b]);
    // An integer is a number: `number` ∩ `integer` is `integer`.
    const both = left.filter((t) => right.has(t) || (t === 'integer' && right.has('number')));
    if (left.includes('number') && right.has('integer') && !both.includes('integer'))
      both.push('integer');
    return both.length === 1 ? (both[0] as JsonValue) : both;
  }
  if (key === 'enum' && Array.isArray(a) && Array.isArray(b))
    return a.filter((value) => b.some((other) => same(value, other)));
  if (typeof a === 'number' && typeof b === 'number') {
    if (LOWER_BOUNDS.has(key)) return Math.max(a, b);
    if (UPPER_BOUNDS.has(key)) return Math.min(a, b);
  }
  if (key === 'additionalProperties' && (a === false || b === false)) return false;
  return undefined;
}

function same(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

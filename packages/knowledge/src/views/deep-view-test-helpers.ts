// Test helpers of the deep-view property test: arguments built from a deep view alone, and the
// required fields of a schema next to those a deep view shows.
import randexpModule from 'randexp';
import type { JsonObject, JsonValue, ToolSpec } from '@mcp-agent/core';
import { describeTool, type DeepViewTool } from './deep-view.js';
import type { DeepViewParameter } from './parameter-list.js';

type RandExpClass = new (pattern: string) => {
  gen(): string;
  randInt(a: number, b: number): number;
};
// randexp is CommonJS: its class arrives as the module object or as its default.
const RandExp = ((randexpModule as unknown as { default?: RandExpClass }).default ??
  (randexpModule as unknown as RandExpClass)) as RandExpClass;

const MAX_DEPTH = 24;

/** A tool `p.t` with this input schema. */
export const tool = (inputSchema: JsonObject, extra: Partial<ToolSpec> = {}): ToolSpec => ({
  id: 'p.t',
  serverId: 'p',
  name: 't',
  description: '',
  inputSchema,
  ...extra,
});

/** The deep view of {@link tool}. */
export const view = (inputSchema: JsonObject, extra: Partial<ToolSpec> = {}) =>
  describeTool(tool(inputSchema, extra));

/** One parameter row of the deep view of {@link tool}. */
export const row = (schema: JsonObject, path: string) =>
  view(schema).parameters.find((p) => p.path === path);

/**
 * Arguments for a tool built only from its deep view: the call signature's root type, the
 * parameter rows and the named types. Required fields are filled (optional ones too with
 * `optional: true`, a named type's own optional fields aside, so that cycles end), every
 * array gets `max(1, minItems)` items, a union takes its first option (its first non-null one
 * when only that one has rows), values follow the row's enum, format and bounds.
 */
export function argumentsFromView(
  view: DeepViewTool,
  options: { readonly optional?: boolean } = {},
): JsonValue {
  const types = new Map((view.types ?? []).map((t) => [t.name, t]));
  const root = view.call_signature.slice(view.tool_id.length + 1, -1);

  const value = (
    rows: readonly DeepViewParameter[],
    path: string,
    type: string,
    depth: number,
    optional = options.optional === true,
  ): JsonValue => {
    if (depth > MAX_DEPTH) throw new Error(`${view.tool_id}: no finite value at ${path}`);
    const row = rows.find((r) => r.path === path);
    if (row?.enum !== undefined) return row.enum[0] as JsonValue;
    const options = splitTop(type, ' | ');
    if (options.length > 1) {
      const marked = `${path}(option 1)`;
      if (rows.some((r) => r.path === marked || r.path.startsWith(marked)))
        return value(rows, marked, options[0] as string, depth + 1, optional);
      const chosen = options.find((o) => o !== 'null') ?? 'null';
      return value(rows, path, chosen, depth + 1, optional);
    }
    const parts = splitTop(type, ' & ');
    if (parts.length > 1)
      return value(rows, `${path}(part 1)`, parts[0] as string, depth + 1, optional);
    const constraints = row?.constraints ?? {};
    if (type.startsWith('(') && type.endsWith(')') && closes(type))
      return value(rows, path, type.slice(1, -1), depth + 1, optional);
    if (type.endsWith('[]')) {
      const count = Math.max(1, number(constraints.minItems) ?? 0);
      const max = number(constraints.maxItems);
      const items = type.slice(0, -2);
      return Array.from({ length: max === undefined ? count : Math.min(count, max) }, () =>
        value(rows, `${path}[]`, items, depth + 1, optional),
      );
    }
    if (type.startsWith('[')) {
      const elements = splitTop(type.slice(1, -1), ', ').filter((e) => !e.startsWith('...'));
      return elements.map((element, i) =>
        value(rows, `${path}[${i}]`, element, depth + 1, optional),
      );
    }
    if (type === 'object' || type.startsWith('{')) {
      const prefix = path === '' ? '' : path;
      const object: Record<string, JsonValue> = {};
      for (const child of rows) {
        const name = childName(prefix, child.path);
        if (name !== undefined && (child.required === true || optional))
          object[name] = value(rows, child.path, child.type, depth + 1, optional);
      }
      return object;
    }
    if (type.startsWith('Record<')) return {};
    const named = types.get(type);
    if (named !== undefined) {
      const body = named.type.startsWith('{') ? 'object' : named.type;
      return value(named.parameters, '', body, depth + 1, false);
    }
    if (/^["\d-]|^(true|false|null)$/.test(type)) return JSON.parse(type) as JsonValue;
    if (type === 'string' || type === 'any') return text(constraints);
    if (type === 'number' || type === 'integer') return numeric(constraints, type === 'integer');
    if (type === 'boolean') return true;
    if (type === 'null') return null;
    if (type === '{}') return {};
    throw new Error(`${view.tool_id}: cannot build a value of type ${type} at ${path}`);
  };

  const body = root.startsWith('{') ? 'object' : root;
  return value(view.parameters, '', body, 0);
}

/**
 * The required fields of a schema at every depth, each as the chain of property names from the
 * root (`entities.name`; `*` for any key of a map), following `$ref`s (a cycle stops the walk),
 * unions, intersections, array items and tuples.
 */
export function requiredChains(schema: JsonValue | undefined): Set<string> {
  const root = object(schema) ?? {};
  const chains = new Set<string>();
  // A reference back to a node being walked is a cycle: the walk stops there.
  const walk = (node: JsonValue | undefined, chain: string, ancestors: Set<JsonObject>) => {
    const here = object(node);
    if (here === undefined) return;
    const refs = new Set([...ancestors, here]);
    if (typeof here.$ref === 'string') {
      const target = resolve(root, here.$ref);
      if (target !== undefined && !refs.has(target)) walk(target, chain, refs);
    }
    if (Array.isArray(here.required))
      for (const name of here.required) if (typeof name === 'string') chains.add(join(chain, name));
    const properties = object(here.properties);
    if (properties !== undefined)
      for (const [name, child] of Object.entries(properties)) walk(child, join(chain, name), refs);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
      if (Array.isArray(here[key])) for (const child of here[key]) walk(child, chain, refs);
    if (Array.isArray(here.items)) for (const child of here.items) walk(child, chain, refs);
    else walk(here.items, chain, refs);
    walk(here.additionalProperties, join(chain, '*'), refs);
    const patterns = object(here.patternProperties);
    if (patterns !== undefined)
      for (const child of Object.values(patterns)) walk(child, join(chain, '*'), refs);
  };
  walk(root, '', new Set());
  return chains;
}

/** The required fields a deep view shows, as chains of property names (named types expanded). */
export function viewRequiredChains(view: DeepViewTool): Set<string> {
  const types = new Map((view.types ?? []).map((t) => [t.name, t]));
  const chains = new Set<string>();
  const expand = (rows: readonly DeepViewParameter[], base: string, seen: Set<string>) => {
    for (const row of rows) {
      const chain = join(base, namesOf(row.path));
      if (row.required === true) chains.add(chain);
      for (const name of row.type.match(/[A-Za-z_$][\w$]*/g) ?? []) {
        const named = types.get(name);
        if (named !== undefined && !seen.has(name))
          expand(named.parameters, chain, new Set([...seen, name]));
      }
    }
  };
  const root = view.call_signature.slice(view.tool_id.length + 1, -1);
  const rootType = types.get(root);
  if (rootType !== undefined) expand(rootType.parameters, '', new Set([root]));
  expand(view.parameters, '', new Set());
  return chains;
}

// `entities[](option 2).name` → `entities.name`; `env.*` → `env.*`; `["a.b"].c` → `a.b.c`.
function namesOf(path: string): string {
  const names: string[] = [];
  const pattern = /\[("(?:[^"\\]|\\.)*")\]|\[\d*\]|\((?:option|part) \d+\)|\.?([^.[(]+)/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) names.push(JSON.parse(match[1]) as string);
    else if (match[2] !== undefined) names.push(match[2]);
  }
  return names.join('.');
}

// The field name of `path` when it is a direct field of the object at `prefix`.
function childName(prefix: string, path: string): string | undefined {
  if (prefix !== '' && !path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  const plain = prefix === '' ? /^([A-Za-z_$][\w$-]*)$/ : /^\.([A-Za-z_$][\w$-]*)$/;
  const quoted = /^\[("(?:[^"\\]|\\.)*")\]$/;
  const match = plain.exec(rest) ?? quoted.exec(rest);
  if (match === null) return undefined;
  return match[1]?.startsWith('"') ? (JSON.parse(match[1]) as string) : match[1];
}

function text(constraints: Readonly<Record<string, JsonValue>>): string {
  const min = number(constraints.minLength) ?? 0;
  const max = number(constraints.maxLength) ?? Infinity;
  if (typeof constraints.pattern === 'string') {
    const generator = new RandExp(constraints.pattern);
    generator.randInt = (a) => a; // shortest matches, the same every run
    let sample = generator.gen();
    while (sample.length < min) sample += sample.slice(-1) || 'a';
    return sample;
  }
  const byFormat: Record<string, string> = {
    uuid: '123e4567-e89b-12d3-a456-426614174000',
    'date-time': '2026-01-02T03:04:05Z',
    date: '2026-01-02',
    time: '03:04:05Z',
    email: 'user@example.com',
    uri: 'https://example.com/a',
    url: 'https://example.com/a',
    'uri-reference': '/a',
    hostname: 'example.com',
    ipv4: '192.0.2.1',
    ipv6: '2001:db8::1',
    json: '{}',
  };
  const format = typeof constraints.format === 'string' ? byFormat[constraints.format] : undefined;
  if (format !== undefined) return format;
  const length = Math.min(Math.max(min, 5), max);
  return 'x'.repeat(length);
}

function numeric(constraints: Readonly<Record<string, JsonValue>>, integer: boolean): number {
  const step = number(constraints.multipleOf) ?? (integer ? 1 : 0.5);
  // Draft-04 writes an exclusive bound as `minimum` with `exclusiveMinimum: true`.
  const draft04Low =
    constraints.exclusiveMinimum === true ? number(constraints.minimum) : undefined;
  const draft04High =
    constraints.exclusiveMaximum === true ? number(constraints.maximum) : undefined;
  let low = number(constraints.minimum) ?? -Infinity;
  const exclusiveLow = number(constraints.exclusiveMinimum) ?? draft04Low;
  if (exclusiveLow !== undefined) low = Math.max(low, exclusiveLow + Number.EPSILON);
  let high = number(constraints.maximum) ?? Infinity;
  const exclusiveHigh = number(constraints.exclusiveMaximum) ?? draft04High;
  if (exclusiveHigh !== undefined) high = Math.min(high, exclusiveHigh - Number.EPSILON);
  const start = Number.isFinite(low) ? Math.ceil(low / step) * step : Math.min(1, high);
  return Number.isFinite(high) && start > high ? Math.floor(high / step) * step : start;
}

function number(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

// Splits a type at a top-level separator: not inside (), [], {}, <> or a string.
function splitTop(type: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i] as string;
    if (c === '"') {
      for (i++; i < type.length && type[i] !== '"'; i++) if (type[i] === '\\') i++;
    } else if ('([{<'.includes(c)) depth++;
    else if (')]}>'.includes(c)) depth--;
    else if (depth === 0 && type.startsWith(separator, i)) {
      parts.push(type.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(type.slice(start));
  return parts;
}

// Whether the parenthesis that opens `type` is the one that closes it.
function closes(type: string): boolean {
  return depthAt(type) === type.length - 1;
}

function depthAt(type: string): number {
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i] as string;
    if (c === '"') {
      for (i++; i < type.length && type[i] !== '"'; i++) if (type[i] === '\\') i++;
    } else if ('([{<'.includes(c)) depth++;
    else if (')]}>'.includes(c) && --depth === 0) return i;
  }
  return -1;
}

function resolve(root: JsonObject, ref: string): JsonObject | undefined {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let node: JsonValue | undefined = root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(key)] : object(node)?.[key];
  }
  return object(node);
}

function object(value: JsonValue | undefined): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

function join(chain: string, name: string): string {
  return chain === '' ? name : name === '' ? chain : `${chain}.${name}`;
}

import type { JsonObject, JsonValue } from '@mcp-agent/core';

/** One input parameter, debloated. */
export interface ParameterSummary {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  readonly enum?: readonly JsonValue[];
  readonly default?: JsonValue;
}

const MAX_PARAMETER_DESCRIPTION = 160;
const MAX_ENUM = 20;

/** The top-level parameters of an input schema, required first, in schema order otherwise. */
export function summarizeParameters(schema: JsonObject | undefined): ParameterSummary[] {
  const properties = asObject(schema?.properties);
  if (properties === undefined) return [];
  const required = new Set(
    Array.isArray(schema?.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  const params = Object.entries(properties).map(([name, raw]) => {
    const property = asObject(raw) ?? {};
    const description =
      typeof property.description === 'string'
        ? trimText(property.description, MAX_PARAMETER_DESCRIPTION)
        : '';
    const values = Array.isArray(property.enum) ? property.enum : undefined;
    return {
      name,
      type: typeOf(property),
      required: required.has(name),
      ...(description === '' ? {} : { description }),
      ...(values === undefined ? {} : { enum: values.slice(0, MAX_ENUM) }),
      ...(property.default === undefined ? {} : { default: property.default }),
    };
  });
  return [...params.filter((p) => p.required), ...params.filter((p) => !p.required)];
}

/** A short type for a JSON Schema node: `string`, `number[]`, `"a" | "b"`, `object`. */
export function typeOf(node: JsonObject | undefined, depth = 0): string {
  if (node === undefined || depth > 3) return 'any';
  if (Array.isArray(node.enum) && node.enum.length <= 6)
    return node.enum.map((v) => JSON.stringify(v)).join(' | ');
  const type = node.type;
  if (Array.isArray(type)) return type.filter((t) => typeof t === 'string').join(' | ') || 'any';
  if (type === 'array') return `${typeOf(asObject(node.items), depth + 1)}[]`;
  if (typeof type === 'string') return type === 'integer' ? 'integer' : type;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = node[key];
    if (Array.isArray(options)) {
      return [...new Set(options.map((o) => typeOf(asObject(o), depth + 1)))].join(' | ') || 'any';
    }
  }
  if (node.properties !== undefined) return 'object';
  return 'any';
}

/**
 * Flat field paths of an output schema, such as `messages[].subject`, up to four levels and
 * 40 fields: what the model needs to use a result, without the schema's bulk.
 */
export function outputFields(schema: JsonObject | undefined, limit = 40): string[] {
  const fields: string[] = [];
  const walk = (node: JsonObject | undefined, path: string, depth: number) => {
    if (node === undefined || fields.length >= limit || depth > 4) return;
    if (node.type === 'array') {
      walk(asObject(node.items), `${path}[]`, depth + 1);
      return;
    }
    const properties = asObject(node.properties);
    if (properties === undefined) {
      if (path !== '') fields.push(path);
      return;
    }
    for (const [name, child] of Object.entries(properties)) {
      if (fields.length >= limit) return;
      walk(asObject(child), path === '' ? name : `${path}.${name}`, depth + 1);
    }
  };
  walk(schema, '', 0);
  return fields;
}

/**
 * A description cut for a model: the first paragraph, whitespace folded, source paths and
 * markdown clutter removed, at most `max` characters, never inside a surrogate pair.
 */
export function trimText(text: string, max: number): string {
  const firstParagraph = text.split(/\n\s*\n/)[0] ?? '';
  const cleaned = firstParagraph
    .replace(/(?:[A-Za-z]:)?(?:\/[\w.-]+){2,}\.(?:ts|js|py|go|rs|java|rb)(?::\d+)?/g, '')
    .replace(/[*_`#>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned.length <= max) return cleaned;
  let cut = max - 1;
  const code = cleaned.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${cleaned.slice(0, cut).trimEnd()}…`;
}

function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

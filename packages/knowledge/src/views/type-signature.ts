import type { JsonValue } from '@mcp-agent/core';
import type { Shape } from './schema-shape.js';

/** How {@link renderType} writes a shape. */
export interface RenderOptions {
  /** Objects with fields as plain `object` (their fields are listed on their own rows). */
  readonly shallow?: boolean;
  /** Objects nested deeper than this are written `{…}`; default unlimited. */
  readonly maxDepth?: number;
  /** Literal values written before `… N more`; default 12 (at most ~200 characters). */
  readonly maxLiterals?: number;
}

const LITERAL_CHARACTERS = 200;
const DEFAULT_CHARACTERS = 40;

/**
 * A shape as a TypeScript-like type: `{ name: string, tags?: string[] }`, `(string | null)[][]`,
 * `"asc" | "desc"`, `[number, number]`, `Record<string, number>`, named types by name. Unions
 * inside arrays and intersections are parenthesised; long literal lists end in `… N more`.
 */
export function renderType(shape: Shape, options: RenderOptions = {}, depth = 0): string {
  switch (shape.kind) {
    case 'any':
      return 'any';
    case 'never':
      return 'never';
    case 'primitive':
      return shape.type === 'array' ? 'any[]' : shape.type;
    case 'named':
      return shape.name;
    case 'literal':
      return renderLiterals(shape.values, options.maxLiterals ?? 12);
    case 'array': {
      const items = wrap(shape.items, options, depth);
      if (shape.prefix.length === 0) return `${items}[]`;
      const prefix = shape.prefix.map((p) => renderType(p, options, depth + 1));
      if (shape.items.kind !== 'never') prefix.push(`...${items}[]`);
      return `[${prefix.join(', ')}]`;
    }
    case 'object': {
      if (shape.fields.length === 0 && shape.rest === undefined) return '{}';
      if (options.shallow === true && shape.fields.length > 0) return 'object';
      if (options.maxDepth !== undefined && depth >= options.maxDepth) return '{…}';
      const rest =
        shape.rest === undefined ? undefined : renderType(shape.rest, options, depth + 1);
      if (shape.fields.length === 0) return `Record<string, ${rest}>`;
      const fields = shape.fields.map((field) => {
        const value = renderType(field.shape, options, depth + 1);
        const fallback =
          field.shape.default === undefined ? '' : ` = ${shortJson(field.shape.default)}`;
        return `${propertyName(field.name)}${field.required ? '' : '?'}: ${value}${fallback}`;
      });
      if (rest !== undefined) fields.push(`[key: string]: ${rest}`);
      return `{ ${fields.join(', ')} }`;
    }
    case 'union': {
      const parts = shape.options.map((o) => renderType(o, options, depth));
      return (options.shallow === true ? parts : [...new Set(parts)]).join(' | ');
    }
    case 'intersection':
      return shape.parts.map((p) => wrap(p, options, depth)).join(' & ');
  }
}

/** Whether a rendered type lists fewer literal values than the shape has. */
export function literalsCut(shape: Shape, maxLiterals = 12): boolean {
  return shape.kind === 'literal' && shownLiterals(shape.values, maxLiterals) < shape.values.length;
}

/** A property name as TypeScript writes it: bare when it is an identifier, else quoted. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

/** A JSON value in at most ~40 characters, cut with `…` (the full value is on the parameter row). */
export function shortJson(value: JsonValue): string {
  const text = JSON.stringify(value);
  if (text.length <= DEFAULT_CHARACTERS) return text;
  let cut = DEFAULT_CHARACTERS - 1;
  if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

function wrap(shape: Shape, options: RenderOptions, depth: number): string {
  const text = renderType(shape, options, depth + 1);
  const compound =
    (shape.kind === 'union' && (options.shallow === true || text.includes(' | '))) ||
    shape.kind === 'intersection' ||
    (shape.kind === 'literal' && shape.values.length > 1);
  return compound ? `(${text})` : text;
}

function renderLiterals(values: readonly JsonValue[], maxLiterals: number): string {
  if (values.length === 0) return 'never';
  const shown = shownLiterals(values, maxLiterals);
  const parts = values.slice(0, shown).map((v) => JSON.stringify(v));
  if (shown < values.length) parts.push(`… ${values.length - shown} more`);
  return parts.join(' | ');
}

function shownLiterals(values: readonly JsonValue[], maxLiterals: number): number {
  let length = 0;
  let shown = 0;
  for (const value of values) {
    length += JSON.stringify(value).length + 3;
    if (shown >= 1 && (shown >= maxLiterals || length > LITERAL_CHARACTERS)) break;
    shown += 1;
  }
  return shown;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

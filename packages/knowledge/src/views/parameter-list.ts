import type { JsonValue } from '@mcp-agent/core';
import { READ_THE_REST, verbatimText } from './description-text.js';
import type { Shape } from './schema-shape.js';
import { literalsCut, renderType } from './type-signature.js';

/**
 * One row of the parameter list: a field (or an array item, union option, map value that says
 * something of its own) at its path. Paths: `entities[].name` (array items), `point[0]` (tuple
 * positions), `parent(option 2).page_id` (a union's options, when several have fields),
 * `headers.*` (any other key of a map), `["odd.name"]` (names that are not identifiers).
 */
export interface DeepViewParameter {
  /** Where the field is, written as above. */
  readonly path: string;
  /** The type, objects written `object` (their fields follow on their own rows). */
  readonly type: string;
  /**
   * `true` on a field that must be present whenever the object holding it is; absent on
   * optional fields (the call signature marks them `?` too) and on rows that are not fields.
   */
  readonly required?: true;
  /** The schema's description of it. */
  readonly description?: string;
  /** Its default, when the schema gives one. */
  readonly default?: JsonValue;
  /** Every allowed value, when the type lists only the first ones. */
  readonly enum?: readonly JsonValue[];
  /** Said when even `enum` could not list every value. */
  readonly enum_cut?: string;
  /** Validation keywords as the schema wrote them: `format`, `minimum`, `maxLength`, `pattern`… */
  readonly constraints?: Readonly<Record<string, JsonValue>>;
  /** The schema's examples of it. */
  readonly examples?: JsonValue;
}

/** Budgets of {@link parameterRows}; `Infinity` lifts one. */
export interface RowBudgets {
  /** Characters of one field description. */
  readonly description: number;
  /** Characters of one row's `enum` list (as JSON). */
  readonly enumCharacters: number;
}

/** The rows of a shape, depth first in schema order (a field's own fields right after it). */
export function parameterRows(shape: Shape, budgets: RowBudgets): DeepViewParameter[] {
  const rows: DeepViewParameter[] = [];
  walk(shape, '', undefined, budgets, rows);
  return rows;
}

function walk(
  shape: Shape,
  path: string,
  required: boolean | undefined,
  budgets: RowBudgets,
  rows: DeepViewParameter[],
): void {
  if (path !== '' && (required !== undefined || ownsRow(shape)))
    rows.push(row(shape, path, required, budgets));
  switch (shape.kind) {
    case 'object':
      for (const field of shape.fields)
        walk(field.shape, join(path, field.name), field.required, budgets, rows);
      if (shape.rest !== undefined)
        walk(shape.rest, `${path === '' ? '' : `${path}.`}*`, undefined, budgets, rows);
      return;
    case 'array':
      shape.prefix.forEach((item, i) => walk(item, `${path}[${i}]`, undefined, budgets, rows));
      walk(shape.items, `${path}[]`, undefined, budgets, rows);
      return;
    case 'union':
    case 'intersection': {
      const parts = shape.kind === 'union' ? shape.options : shape.parts;
      const word = shape.kind === 'union' ? 'option' : 'part';
      const each = parts.map((part, i) => {
        const own: DeepViewParameter[] = [];
        walk(part, `${path}(${word} ${i + 1})`, undefined, budgets, own);
        return own;
      });
      const withRows = each.filter((own) => own.length > 0);
      // One option with fields among scalars (`object | null`): its fields need no marker.
      const index = each.findIndex((own) => own.length > 0);
      const single = parts[index];
      if (
        withRows.length === 1 &&
        shape.kind === 'union' &&
        single !== undefined &&
        !ownsRow(single)
      )
        walk(single, path, undefined, budgets, rows);
      else rows.push(...withRows.flat());
      return;
    }
    default:
      return;
  }
}

function row(
  shape: Shape,
  path: string,
  required: boolean | undefined,
  budgets: RowBudgets,
): DeepViewParameter {
  const literals = shape.kind === 'literal' && literalsCut(shape) ? shape.values : undefined;
  const values = literals === undefined ? undefined : listed(literals, budgets);
  return {
    path,
    // Values past the type's first dozen are in `enum`: the type then says only what they are.
    type:
      literals === undefined
        ? renderType(shape, { shallow: true })
        : [...new Set(literals.map(jsonType))].join(' | '),
    ...(required === true ? { required } : {}),
    ...(shape.description === undefined
      ? {}
      : { description: verbatimText(shape.description, budgets.description) }),
    ...(shape.default === undefined ? {} : { default: shape.default }),
    ...(values === undefined ? {} : { enum: values.shown }),
    ...(values === undefined || values.more === 0
      ? {}
      : { enum_cut: `… and ${values.more} more values; ${READ_THE_REST}` }),
    ...(shape.constraints === undefined ? {} : { constraints: shape.constraints }),
    ...(shape.examples === undefined ? {} : { examples: shape.examples }),
  };
}

function jsonType(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function listed(values: readonly JsonValue[], budgets: RowBudgets) {
  let length = 2;
  let shown = 0;
  for (const value of values) {
    length += JSON.stringify(value).length + 1;
    if (length > budgets.enumCharacters && shown > 0) break;
    shown += 1;
  }
  return { shown: values.slice(0, shown), more: values.length - shown };
}

// A node that is not a field gets a row of its own only when it says something its parent's
// type does not: a description, default, constraint, or literals the type could not list.
function ownsRow(shape: Shape): boolean {
  return (
    shape.description !== undefined ||
    shape.default !== undefined ||
    shape.constraints !== undefined ||
    shape.examples !== undefined ||
    literalsCut(shape)
  );
}

function join(path: string, name: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(name)) return path === '' ? name : `${path}.${name}`;
  return `${path}[${JSON.stringify(name)}]`;
}

import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { READ_THE_REST, verbatimText } from './description-text.js';
import { schemaShape, type Shape } from './schema-shape.js';
import { renderType } from './type-signature.js';

/** One top-level input parameter, as the manifest lists it. */
export interface ParameterSummary {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description?: string;
  readonly enum?: readonly JsonValue[];
  readonly default?: JsonValue;
}

const MAX_PARAMETER_DESCRIPTION = 2_000;

/** The top-level parameters of an input schema, required first, in schema order otherwise. */
export function summarizeParameters(schema: JsonObject | undefined): ParameterSummary[] {
  const root = schemaShape(schema).root;
  if (root.kind !== 'object') return [];
  const params = root.fields.map((field): ParameterSummary => {
    const shape = field.shape;
    return {
      name: field.name,
      type: renderType(shape, { shallow: true }),
      required: field.required,
      ...(shape.description === undefined
        ? {}
        : { description: verbatimText(shape.description, MAX_PARAMETER_DESCRIPTION) }),
      ...(shape.kind === 'literal' ? { enum: shape.values } : {}),
      ...(shape.default === undefined ? {} : { default: shape.default }),
    };
  });
  return [...params.filter((p) => p.required), ...params.filter((p) => !p.required)];
}

/** A JSON Schema node as a TypeScript-like type: `string`, `(string | null)[]`, `"a" | "b"`. */
export function typeOf(node: JsonObject | undefined): string {
  return renderType(schemaShape(node).root);
}

/**
 * The field paths of an output schema, such as `messages[].subject`, every depth, named types
 * by name: what the model needs to use a result. Past `limit` paths the list ends with a line
 * saying how many more there are and how to read them.
 */
export function outputFields(schema: JsonObject | undefined, limit = 40): string[] {
  if (schema === undefined) return [];
  const fields = new Set<string>();
  const walk = (shape: Shape, path: string) => {
    if (shape.kind === 'object' && shape.fields.length > 0) {
      for (const field of shape.fields)
        walk(field.shape, path === '' ? field.name : `${path}.${field.name}`);
    } else if (shape.kind === 'array') walk(shape.items, `${path}[]`);
    else if (shape.kind === 'union') {
      for (const option of shape.options)
        if (!(option.kind === 'primitive' && option.type === 'null')) walk(option, path);
    } else if (path !== '') fields.add(path);
  };
  walk(schemaShape(schema).root, '');
  const all = [...fields];
  if (all.length <= limit) return all;
  return [...all.slice(0, limit), `… and ${all.length - limit} more fields; ${READ_THE_REST}`];
}

import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { mergeSchemas } from './schema-merge.js';
import { asObject, SchemaReferences } from './schema-references.js';

/** What a schema says about a value besides its type: shown beside the type, never dropped. */
export interface ShapeInfo {
  readonly description?: string;
  readonly default?: JsonValue;
  readonly examples?: JsonValue;
  /** Validation keywords as the schema wrote them (`format`, `minimum`, `pattern`…); subschemas rendered as types. */
  readonly constraints?: Readonly<Record<string, JsonValue>>;
}

/** One property of an object shape. */
export interface ShapeField {
  readonly name: string;
  readonly required: boolean;
  readonly shape: Shape;
}

/** A JSON Schema as the deep view reads it: resolved, combined and normalised. */
export type Shape = ShapeInfo &
  (
    | { readonly kind: 'any' }
    | { readonly kind: 'never' }
    | {
        readonly kind: 'primitive';
        readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';
      }
    | { readonly kind: 'literal'; readonly values: readonly JsonValue[] }
    | { readonly kind: 'array'; readonly prefix: readonly Shape[]; readonly items: Shape }
    | {
        readonly kind: 'object';
        readonly fields: readonly ShapeField[];
        /** The shape of properties not listed (`additionalProperties`, `patternProperties`). */
        readonly rest?: Shape;
      }
    | { readonly kind: 'union'; readonly options: readonly Shape[] }
    | { readonly kind: 'intersection'; readonly parts: readonly Shape[] }
    | { readonly kind: 'named'; readonly name: string }
  );

/** A whole input schema as shapes: the root, the named types it uses, and what was left out. */
export interface SchemaShape {
  readonly root: Shape;
  /** Types shown by name (cycles, shared `$defs`), in order of first use. */
  readonly types: ReadonlyMap<string, Shape>;
  /** Nodes not converted because the schema exceeded the safety bound (0 for real schemas). */
  readonly omitted: number;
}

const CONSTRAINTS = [
  'format',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'contentEncoding',
  'contentMediaType',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'dependentRequired',
] as const;
/** Constraint keywords whose value is a subschema (kept as the schema wrote them). */
const SCHEMA_CONSTRAINTS = ['not', 'contains', 'propertyNames', 'if', 'then', 'else'] as const;
const INFO_KEYS = new Set(['description', 'default', 'examples', 'title']);
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
/** Shape nodes one schema may produce: a guard against schemas that explode when inlined. */
const MAX_NODES = 20_000;

/** Converts an input schema into shapes, resolving `$ref`s and combining `allOf`. */
export function schemaShape(schema: JsonValue | undefined): SchemaShape {
  const root = asObject(schema) ?? {};
  const references = new SchemaReferences(root);
  const types = new Map<string, Shape>();
  let nodes = 0;
  let omitted = 0;

  const convert = (value: JsonValue | undefined): Shape => {
    if (value === false) return { kind: 'never' };
    const node = asObject(value);
    if (node === undefined) return { kind: 'any' };
    if (++nodes > MAX_NODES) {
      omitted += 1;
      return { kind: 'any' };
    }
    const name = references.nameOf(node);
    if (name !== undefined) return named(name, node);
    return withInfo(node, structure(node));
  };

  const named = (name: string, node: JsonObject): Shape => {
    if (!types.has(name)) {
      types.set(name, { kind: 'any' }); // placeholder: a cycle meets the name, not the body
      types.set(name, withInfo(node, structure(node)));
    }
    return { kind: 'named', name };
  };

  const structure = (node: JsonObject): Shape => {
    if (typeof node.$ref === 'string') {
      const target = references.resolve(node.$ref);
      if (target === undefined) return { kind: 'any', constraints: { $ref: node.$ref } };
      const { $ref: _ref, ...siblings } = node;
      const targetName = references.nameOf(target);
      const rest = stripInfo(siblings);
      if (targetName !== undefined) {
        const reference = named(targetName, target);
        return Object.keys(rest).length === 0
          ? reference
          : { kind: 'intersection', parts: [reference, structure(rest)] };
      }
      // The reference's own keywords sit beside the target's; its description wins (withInfo).
      const merged = mergeSchemas(stripInfo(target), rest);
      if (merged === undefined)
        return { kind: 'intersection', parts: [convert(target), structure(rest)] };
      return withInfo(target, structure(merged));
    }
    if (Array.isArray(node.allOf)) return allOf(node, node.allOf);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = node[key];
      if (Array.isArray(options)) {
        const { [key]: _options, ...base } = node;
        const other = key === 'anyOf' ? 'oneOf' : 'anyOf';
        if (Array.isArray(base[other]))
          return { kind: 'intersection', parts: [structure(base), union(options, {})] };
        return union(options, stripInfo(base));
      }
    }
    if (node.nullable === true) {
      const { nullable: _nullable, ...rest } = node;
      return unionOf([structure(rest), { kind: 'primitive', type: 'null' }]);
    }
    if (node.const !== undefined)
      return constrained(node, { kind: 'literal', values: [node.const] });
    if (Array.isArray(node.enum)) return constrained(node, { kind: 'literal', values: node.enum });
    if (Array.isArray(node.type)) {
      const types = node.type.filter((t): t is string => typeof t === 'string');
      if (types.length !== 1)
        return unionOf(types.map((type) => structure({ ...stripInfo(node), type })));
      return structure({ ...node, type: types[0] as string });
    }
    const type = typeof node.type === 'string' ? node.type : inferType(node);
    if (type === 'object') return constrained(node, objectShape(node));
    if (type === 'array') return constrained(node, arrayShape(node));
    if (type !== undefined && PRIMITIVES.has(type))
      return constrained(node, { kind: 'primitive', type: type as 'string' });
    return constrained(node, { kind: 'any' });
  };

  // Each option holds together with the keywords beside the `anyOf` (`{type: string,
  // anyOf: [{format: ipv4}, {format: ipv6}]}` is a string in either format).
  const union = (options: JsonValue[], base: JsonObject): Shape => {
    const shapes = options.map((option) => {
      const object = asObject(option);
      if (object === undefined || Object.keys(base).length === 0) return convert(option);
      const target = typeof object.$ref === 'string' ? references.resolve(object.$ref) : undefined;
      const byName = references.nameOf(target ?? object) !== undefined;
      // `{type: object, anyOf: [{$ref: A}]}`: the type adds nothing to a named object.
      if (byName && Object.keys(base).every((k) => k === 'type')) return convert(option);
      if (byName) return intersect([base, object]);
      const merged = mergeSchemas(base, object);
      return merged === undefined ? intersect([base, object]) : convert(merged);
    });
    return unionOf(shapes);
  };

  const allOf = (node: JsonObject, parts: JsonValue[]): Shape => {
    const { allOf: _parts, ...base } = node;
    let merged: JsonObject | undefined = stripInfo(base);
    for (const part of parts) {
      let object = asObject(part);
      if (object !== undefined && typeof object.$ref === 'string') {
        const target = references.resolve(object.$ref);
        if (target !== undefined && references.nameOf(target) === undefined) {
          const { $ref: _ref, ...siblings } = object;
          object = mergeSchemas(target, siblings);
        } else object = undefined;
      }
      merged =
        object === undefined || merged === undefined ? undefined : mergeSchemas(merged, object);
      if (merged === undefined) break;
    }
    if (merged !== undefined) return structure(merged);
    return intersect([stripInfo(base), ...parts]);
  };

  const intersect = (parts: JsonValue[]): Shape => {
    const shapes = parts
      .filter(
        (part) => !(asObject(part) !== undefined && Object.keys(part as JsonObject).length === 0),
      )
      .map(convert);
    if (shapes.some((s) => s.kind === 'never')) return { kind: 'never' };
    return shapes.length === 1 ? (shapes[0] as Shape) : { kind: 'intersection', parts: shapes };
  };

  const objectShape = (node: JsonObject): Shape => {
    const properties = asObject(node.properties) ?? {};
    const required = new Set(
      Array.isArray(node.required) ? node.required.filter((r) => typeof r === 'string') : [],
    );
    const fields: ShapeField[] = Object.entries(properties).map(([name, schema]) => ({
      name,
      required: required.has(name),
      shape: convert(schema),
    }));
    // A required name the schema never describes is still required: show it as `any`.
    for (const name of required)
      if (!Object.hasOwn(properties, name))
        fields.push({ name, required: true, shape: { kind: 'any' } });
    const patterns = asObject(node.patternProperties);
    const restShapes: Shape[] = [];
    if (patterns !== undefined)
      for (const [pattern, schema] of Object.entries(patterns)) {
        const shape = convert(schema);
        restShapes.push({ ...shape, constraints: { ...shape.constraints, keyPattern: pattern } });
      }
    const additional = node.additionalProperties;
    if (asObject(additional) !== undefined) restShapes.push(convert(additional));
    else if (additional === false && fields.length === 0 && restShapes.length === 0)
      return { kind: 'object', fields: [] };
    if (fields.length === 0 && restShapes.length === 0)
      return { kind: 'primitive', type: 'object' };
    const rest = restShapes.length === 0 ? undefined : unionOf(restShapes);
    return { kind: 'object', fields, ...(rest === undefined ? {} : { rest }) };
  };

  const arrayShape = (node: JsonObject): Shape => {
    // 2020-12 `prefixItems` + `items`; drafts 4-7 `items: [...]` + `additionalItems`.
    const tuple = Array.isArray(node.prefixItems)
      ? { prefix: node.prefixItems, rest: node.items }
      : Array.isArray(node.items)
        ? { prefix: node.items, rest: node.additionalItems }
        : { prefix: [], rest: node.items };
    if (tuple.prefix.length === 0 && tuple.rest === undefined)
      return { kind: 'primitive', type: 'array' };
    return {
      kind: 'array',
      prefix: tuple.prefix.map(convert),
      items: tuple.rest === undefined ? { kind: 'any' } : convert(tuple.rest),
    };
  };

  const constrained = (node: JsonObject, shape: Shape): Shape => {
    const constraints: Record<string, JsonValue> = {};
    for (const key of CONSTRAINTS) if (node[key] !== undefined) constraints[key] = node[key];
    for (const key of SCHEMA_CONSTRAINTS) if (node[key] !== undefined) constraints[key] = node[key];
    return Object.keys(constraints).length === 0 ? shape : { ...shape, constraints };
  };

  const rootShape = convert(root);
  return { root: rootShape, types, omitted };
}

/** A union of shapes, nested unions flattened, `never` dropped, one option left as itself. */
export function unionOf(shapes: readonly Shape[]): Shape {
  const options = shapes
    .flatMap((s) => (s.kind === 'union' && !hasInfo(s) ? s.options : [s]))
    .filter((s) => s.kind !== 'never');
  if (options.length === 0) return { kind: 'never' };
  if (options.length === 1) return options[0] as Shape;
  return { kind: 'union', options };
}

function withInfo(node: JsonObject, shape: Shape): Shape {
  const info: { -readonly [K in keyof ShapeInfo]: ShapeInfo[K] } = {};
  if (typeof node.description === 'string' && node.description !== '')
    info.description = node.description;
  if (node.default !== undefined) info.default = node.default;
  if (node.examples !== undefined) info.examples = node.examples;
  return Object.keys(info).length === 0 ? shape : { ...shape, ...info };
}

function hasInfo(shape: Shape): boolean {
  return (
    shape.description !== undefined ||
    shape.default !== undefined ||
    shape.examples !== undefined ||
    shape.constraints !== undefined
  );
}

function stripInfo(node: JsonObject): JsonObject {
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(node)) if (!INFO_KEYS.has(key)) rest[key] = value;
  return rest;
}

function inferType(node: JsonObject): string | undefined {
  if (
    node.properties !== undefined ||
    node.additionalProperties !== undefined ||
    node.patternProperties !== undefined ||
    node.required !== undefined
  )
    return 'object';
  if (node.items !== undefined || node.prefixItems !== undefined) return 'array';
  return undefined;
}

import type { JsonObject, JsonValue } from '@mcp-agent/core';

/** Keywords whose value is one subschema. */
const SINGLE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
/** Keywords whose value is a list of subschemas. */
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'] as const;
/** Keywords whose value maps names to subschemas. */
const MAPS = ['properties', 'patternProperties', 'dependentSchemas'] as const;

/** A JSON Schema node as an object, or undefined for anything else. */
export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

/** The direct subschemas of a node, in schema order (`$defs` excluded: they matter only by reference). */
export function subschemas(node: JsonObject): JsonObject[] {
  const found: JsonObject[] = [];
  for (const key of SINGLE) {
    const child = asObject(node[key]);
    if (child !== undefined) found.push(child);
  }
  for (const key of LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const item of list) pushObject(found, item);
  }
  for (const key of MAPS) {
    const map = asObject(node[key]);
    if (map !== undefined) for (const item of Object.values(map)) pushObject(found, item);
  }
  return found;
}

function pushObject(list: JsonObject[], value: JsonValue): void {
  const object = asObject(value);
  if (object !== undefined) list.push(object);
}

/**
 * The `$ref`s of one input schema: local JSON Pointers (`#/$defs/x`, `#/definitions/x`,
 * `#/properties/a/items`, `#`) resolved against the root, and the targets that must be shown
 * by name rather than inline: those that contain themselves (cycles), and `$defs`/`definitions`
 * entries used more than once (their author named them; inlining each use would repeat them).
 */
export class SchemaReferences {
  readonly #root: JsonObject;
  readonly #names = new Map<JsonObject, string>();
  readonly #used = new Set<string>();

  constructor(root: JsonObject) {
    this.#root = root;
    const counts = new Map<JsonObject, number>();
    const pointers = new Map<JsonObject, string>();
    const recursive = new Set<JsonObject>();
    const expanded = new Set<JsonObject>();
    const stack = new Set<JsonObject>();
    // Depth-first over the schema and its references: a reference to a node on the stack is a
    // cycle; every cycle has one, so naming those targets makes inline expansion finite.
    const walk = (node: JsonObject) => {
      stack.add(node);
      const target = typeof node.$ref === 'string' ? this.resolve(node.$ref) : undefined;
      if (target !== undefined) {
        counts.set(target, (counts.get(target) ?? 0) + 1);
        if (!pointers.has(target)) pointers.set(target, node.$ref as string);
        if (stack.has(target)) recursive.add(target);
        else if (!expanded.has(target)) {
          expanded.add(target);
          walk(target);
        }
      }
      for (const child of subschemas(node)) walk(child);
      stack.delete(node);
    };
    walk(root);
    for (const [target, pointer] of pointers) {
      const named = /^#\/(?:\$defs|definitions)\/[^/]+$/.test(pointer);
      if (recursive.has(target) || ((counts.get(target) ?? 0) > 1 && named))
        this.#names.set(target, this.#nameOf(pointer));
    }
  }

  /** The node a local `$ref` points at, or undefined when it cannot be resolved here. */
  resolve(ref: string): JsonObject | undefined {
    if (ref !== '#' && !ref.startsWith('#/')) return undefined;
    let node: JsonValue | undefined = this.#root;
    for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(node)) node = node[Number(key)];
      else node = asObject(node)?.[key];
      if (node === undefined) return undefined;
    }
    return asObject(node);
  }

  /** The name a node is shown by, when it is shown by name. */
  nameOf(node: JsonObject): string | undefined {
    return this.#names.get(node);
  }

  // `#/$defs/richTextRequest` → `richTextRequest`; `#/properties/data/properties/children/items`
  // → `ChildrenItem`; `#` → `Root`. Unique within the schema.
  #nameOf(pointer: string): string {
    const parts = pointer
      .slice(2)
      .split('/')
      .filter((p) => p !== '')
      .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
    let base: string;
    if (parts.length === 2 && (parts[0] === '$defs' || parts[0] === 'definitions'))
      base = parts[1] as string;
    else {
      const words: string[] = [];
      for (let i = parts.length - 1; i >= 0 && words.length < 2; i--) {
        const part = parts[i] as string;
        if (part === 'items' || part === 'additionalProperties') words.unshift('Item');
        else if (/^\d+$/.test(part) || KEYWORDS.has(part)) continue;
        else {
          words.unshift(part.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^./, (c) => c.toUpperCase()));
          break;
        }
      }
      base = words.join('') || 'Root';
    }
    let name = base;
    for (let n = 2; this.#used.has(name); n++) name = `${base}${n}`;
    this.#used.add(name);
    return name;
  }
}

const KEYWORDS = new Set([
  'properties',
  'anyOf',
  'oneOf',
  'allOf',
  'prefixItems',
  'patternProperties',
  '$defs',
  'definitions',
  'not',
  'if',
  'then',
  'else',
]);

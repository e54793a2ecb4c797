import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvDraft04Module from 'ajv-draft-04';
import formatsModule from 'ajv-formats';
import type { JsonObject } from '@mcp-agent/core';
import { canonicalHash } from '@mcp-agent/core';

/** One way a value breaks its schema. */
export interface ValidationIssue {
  /** JSON Pointer-like path, `(root)` for the value itself. */
  readonly path: string;
  /** What the schema wants there: `a value (required)`, `one of ["a","b"]`, ajv's message. */
  readonly expected: string;
  /** The type found there (never the value: arguments may hold secrets). */
  readonly got: string;
}

type AnyAjv = Ajv | Ajv2020 | AjvDraft04;
type FormatsPlugin = (ajv: AnyAjv) => unknown;
// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin)) as FormatsPlugin;
// ajv-draft-04 sets module.exports.default to the class as well, so `.default` works in both.
const AjvDraft04 = ajvDraft04Module.default;
type AjvDraft04 = InstanceType<typeof AjvDraft04>;

const DRAFT_04 = /draft-0[34]\/schema/;
const DRAFT_06_07 = /draft-0[67]\/schema/;

interface Compiled {
  readonly validate: ValidateFunction;
  /** The schema objects ajv was given for it (and caches), forgotten when it is dropped. */
  readonly given: readonly JsonObject[];
}

/**
 * Compiles JSON Schemas once per content (by canonical hash): draft 2020-12 by default and for
 * `$schema` 2020-12/2019-09, draft-07 when a schema says draft-06/07, draft-04 when it says so;
 * a schema the draft it names (or 2020-12) refuses is read by the newest older draft that
 * compiles it (draft-04's boolean `exclusiveMinimum` and `id` are refused by the later drafts);
 * formats on; strict mode off, since servers write schemas with unknown keywords.
 */
export class SchemaValidator {
  readonly #ajv2020 = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  readonly #ajv07 = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  readonly #ajv04 = new AjvDraft04({ allErrors: true, strict: false, validateFormats: true });
  // In the order last used: tenants register servers, so distinct schemas have no end.
  readonly #compiled = new Map<string, Compiled>();
  readonly #maxSchemas: number;

  /** `maxSchemas`: compiled schemas kept, least recently used dropped first; default 1,000. */
  constructor(options: { readonly maxSchemas?: number } = {}) {
    this.#maxSchemas = Math.max(1, options.maxSchemas ?? 1_000);
    addFormats(this.#ajv2020);
    addFormats(this.#ajv07);
    addFormats(this.#ajv04);
  }

  /** Compiled schemas held. */
  get size(): number {
    return this.#compiled.size;
  }

  /** The compiled validator of `schema`; throws a plain Error when the schema itself is broken. */
  compile(schema: JsonObject): ValidateFunction {
    const key = canonicalHash(schema);
    let compiled = this.#compiled.get(key);
    if (compiled === undefined) {
      const given: JsonObject[] = [];
      try {
        compiled = { validate: this.#compileOnce(schema, given), given };
      } finally {
        // ajv keeps what it was given, compiled or not, until told to forget it.
        if (compiled === undefined) this.#forget(given);
      }
    } else this.#compiled.delete(key);
    this.#compiled.set(key, compiled);
    while (this.#compiled.size > this.#maxSchemas) {
      const [oldest, dropped] = this.#compiled.entries().next().value!;
      this.#compiled.delete(oldest);
      this.#forget(dropped.given);
    }
    return compiled.validate;
  }

  #forget(given: readonly JsonObject[]): void {
    for (const ajv of [this.#ajv2020, this.#ajv07, this.#ajv04])
      for (const schema of given) ajv.removeSchema(schema);
  }

  // `given` collects every object handed to ajv, which caches each by identity.
  #compileOnce(schema: JsonObject, given: JsonObject[]): ValidateFunction {
    const draft = typeof schema.$schema === 'string' ? schema.$schema : '';
    // $schema/$id (and draft-04's id) are dropped: one server's ids must not collide with
    // another's in ajv's registry.
    const { $id: _id, $schema: _schema, ...rest } = schema;
    const give = (object: JsonObject) => (given.push(object), object);
    if (DRAFT_04.test(draft)) return this.#ajv04.compile(give(withoutRootId(rest)));
    give(rest);
    // Generators write older drafts' keywords under no $schema or a later one (draft-07's tuple
    // `items`, draft-04's boolean exclusiveMinimum and `id`): the first draft, newest first, that
    // compiles the schema reads it; when none does, the named (or 2020-12) draft's error stands.
    const older = DRAFT_06_07.test(draft) ? [] : [() => this.#ajv07.compile(rest)];
    try {
      return (DRAFT_06_07.test(draft) ? this.#ajv07 : this.#ajv2020).compile(rest);
    } catch (error) {
      for (const compile of [...older, () => this.#ajv04.compile(give(withoutRootId(rest)))]) {
        try {
          return compile();
        } catch {
          // the next older draft
        }
      }
      throw error;
    }
  }

  /** The issues of `value` against `validate`, empty when it is valid. */
  issues(validate: ValidateFunction, value: unknown): ValidationIssue[] {
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 20).map((error) => describe(error, value));
  }
}

// Draft-04 names the schema's own id `id`: a root one is dropped like `$id`. A property called
// "id" lives under `properties` and is left alone.
function withoutRootId(schema: JsonObject): JsonObject {
  if (typeof schema.id !== 'string') return schema;
  const { id: _id, ...rest } = schema;
  return rest;
}

function describe(error: ErrorObject, root: unknown): ValidationIssue {
  let path = error.instancePath === '' ? '(root)' : error.instancePath;
  let expected = error.message ?? error.keyword;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty?: string }).missingProperty ?? '?';
    path = `${error.instancePath}/${missing}`;
    expected = 'a value (required)';
  } else if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty ?? '?';
    path = `${error.instancePath}/${extra}`;
    expected = 'no such property (additional properties are not allowed)';
  } else if (error.keyword === 'enum') {
    expected = `one of ${allowed((error.params as { allowedValues?: unknown[] }).allowedValues ?? [])}`;
  }
  return { path, expected, got: typeAt(root, path) };
}

function typeAt(root: unknown, path: string): string {
  if (path === '(root)') return kind(root);
  let node: unknown = root;
  for (const part of path.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return 'nothing';
    node = (node as Record<string, unknown>)[key];
  }
  return kind(node);
}

// Most characters of allowed values an issue lists; past it, whole values only, and how many
// more there are (never a value cut mid-word).
const MAX_ALLOWED_CHARS = 2_000;

function allowed(values: readonly unknown[]): string {
  const shown: string[] = [];
  let used = 0;
  for (const value of values) {
    const text = JSON.stringify(value) ?? String(value);
    if (used + text.length > MAX_ALLOWED_CHARS && shown.length > 0) break;
    shown.push(text);
    used += text.length + 1;
  }
  const more = values.length - shown.length;
  return `[${shown.join(',')}${more > 0 ? `, … and ${more} more` : ''}]`;
}

// The kind of what was given, with the value itself when it is a short scalar.
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array (${value.length} items)`;
  if (typeof value === 'string')
    return value.length <= 100
      ? `string ${JSON.stringify(value)}`
      : `string (${value.length} chars) ${JSON.stringify(value.slice(0, 100))}…`;
  if (typeof value === 'number')
    return `${Number.isInteger(value) ? 'integer' : 'number'} ${value}`;
  if (typeof value === 'boolean') return `boolean ${value}`;
  return typeof value;
}

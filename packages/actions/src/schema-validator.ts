import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { JsonObject } from '@mcp-agent/core';
import { canonicalHash } from '@mcp-agent/registry';

/** One way a value breaks its schema. */
export interface ValidationIssue {
  /** JSON Pointer-like path, `(root)` for the value itself. */
  readonly path: string;
  readonly expected: string;
  /** The type found there (never the value: arguments may hold secrets). */
  readonly got: string;
}

type FormatsPlugin = (ajv: Ajv | Ajv2020) => unknown;
// ajv-formats is CommonJS; its default export arrives as the module object under NodeNext.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  (formatsModule as unknown as FormatsPlugin)) as FormatsPlugin;

const DRAFT_07 = /draft-0[467]\/schema/;

/**
 * Compiles JSON Schemas once per content (by canonical hash): draft 2020-12 by default and for
 * `$schema` 2020-12/2019-09, draft-07 when a schema says so; formats on; strict mode off, since
 * servers write schemas with unknown keywords.
 */
export class SchemaValidator {
  readonly #ajv2020 = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  readonly #ajv07 = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.#ajv2020);
    addFormats(this.#ajv07);
  }

  /** The compiled validator of `schema`; throws a plain Error when the schema itself is broken. */
  compile(schema: JsonObject): ValidateFunction {
    const key = canonicalHash(schema);
    let validate = this.#compiled.get(key);
    if (validate === undefined) {
      const ajv =
        typeof schema.$schema === 'string' && DRAFT_07.test(schema.$schema)
          ? this.#ajv07
          : this.#ajv2020;
      // $schema/$id are dropped: one server's ids must not collide with another's in ajv's registry.
      const { $id: _id, $schema: _schema, ...rest } = schema;
      validate = ajv.compile(rest);
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  /** The issues of `value` against `validate`, empty when it is valid. */
  issues(validate: ValidateFunction, value: unknown): ValidationIssue[] {
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 20).map((error) => describe(error, value));
  }
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
    expected = `one of ${JSON.stringify((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).slice(0, 200)}`;
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

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array (${value.length} items)`;
  if (typeof value === 'string') return `string (${value.length} chars)`;
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

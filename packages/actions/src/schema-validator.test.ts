import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '@mcp-agent/core';
import { SchemaValidator } from './schema-validator.js';

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

// Draft-04 as older generators (zod-to-json-schema's jsonSchema4 target, hand-written servers)
// write it: boolean exclusive bounds, `id` for a schema's identity, `definitions` for shared parts.
const pages: JsonObject = {
  $schema: DRAFT_04,
  id: 'urn:pdf-reader:read_pdf',
  type: 'object',
  definitions: { page: { id: '#page', type: 'integer', minimum: 0, exclusiveMinimum: true } },
  properties: {
    sources: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          pages: { type: 'array', items: { $ref: '#page' } },
        },
        required: ['path'],
      },
    },
    id: { type: 'string' },
  },
  required: ['sources'],
};

describe('SchemaValidator', () => {
  it('LOAD-12 keeps at most maxSchemas compiled schemas, and ajv forgets each one dropped', () => {
    // Every ajv class (2020-12, draft-07, draft-04) inherits removeSchema from ajv's core class.
    const removeSchema = vi.spyOn(Object.getPrototypeOf(Ajv.prototype), 'removeSchema');
    try {
      const validator = new SchemaValidator({ maxSchemas: 10 });
      const schemaOf = (i: number): JsonObject => ({
        type: 'object',
        properties: { [`field_${i}`]: { type: 'integer' } },
        required: [`field_${i}`],
      });
      for (let i = 0; i < 50; i += 1) validator.compile(schemaOf(i));
      expect(validator.size).toBe(10);
      // 40 dropped, each forgotten by the three ajv instances.
      expect(removeSchema).toHaveBeenCalledTimes(40 * 3);
      // A schema used again is kept over older ones; a dropped one compiles again.
      validator.compile(schemaOf(40));
      validator.compile(schemaOf(50));
      const again = validator.compile(schemaOf(0));
      expect(validator.size).toBe(10);
      expect(validator.issues(again, { field_0: 'x' })).toEqual([
        { path: '/field_0', expected: 'must be integer', got: 'string "x"' },
      ]);
      expect(validator.issues(validator.compile(schemaOf(40)), { field_40: 1 })).toEqual([]);
      // A broken schema is forgotten at once: nothing of it stays in ajv.
      removeSchema.mockClear();
      expect(() => validator.compile({ type: 'no-such-type' })).toThrow();
      expect(removeSchema.mock.calls.length).toBeGreaterThan(0);
      expect(validator.size).toBe(10);
    } finally {
      removeSchema.mockRestore();
    }
  });

  it('compiles draft-04 schemas as draft-04: boolean exclusive bounds, id and references by id', () => {
    const validator = new SchemaValidator();
    const validate = validator.compile(pages);
    expect(validator.issues(validate, { sources: [{ path: 'a.pdf', pages: [1, 2] }] })).toEqual([]);
    expect(
      validator.issues(validate, { sources: [{ path: 'a.pdf', pages: [0] }], id: 'x' }),
    ).toEqual([{ path: '/sources/0/pages/0', expected: 'must be > 0', got: 'integer 0' }]);
    expect(validator.issues(validate, { sources: [{}] })).toEqual([
      { path: '/sources/0/path', expected: 'a value (required)', got: 'nothing' },
    ]);
  });

  it('reads a schema that names no draft, or a later one, as draft-04 only when it compiles only so', () => {
    const validator = new SchemaValidator();
    const { $schema: _schema, id: _id, ...unnamed } = pages;
    const validate = validator.compile({
      ...unnamed,
      properties: { count: { type: 'number', maximum: 10, exclusiveMaximum: true } },
      required: ['count'],
    });
    expect(validator.issues(validate, { count: 9.5 })).toEqual([]);
    expect(validator.issues(validate, { count: 10 })).toEqual([
      { path: '/count', expected: 'must be < 10', got: 'integer 10' },
    ]);
    // A numeric exclusiveMaximum is 2020-12's: it is not read as draft-04.
    const modern = validator.compile({
      type: 'object',
      properties: { count: { type: 'number', exclusiveMaximum: 10 } },
    });
    expect(validator.issues(modern, { count: 10 })).toHaveLength(1);
    // pdf-reader's read_pdf as it was catalogued: draft-04 bounds under a draft-07 $schema.
    const mislabelled = validator.compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { page: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
    });
    expect(validator.issues(mislabelled, { page: 0 })).toEqual([
      { path: '/page', expected: 'must be > 0', got: 'integer 0' },
    ]);
  });

  it('a tuple `items` under no $schema is read as draft-07, keeping the keywords draft-04 lacks', () => {
    const validator = new SchemaValidator();
    const validate = validator.compile({
      type: 'object',
      properties: {
        point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] },
        unit: { const: 'px' },
      },
    });
    expect(validator.issues(validate, { point: [1, 2], unit: 'px' })).toEqual([]);
    // draft-04 would ignore `const`; draft-07 checks it.
    expect(validator.issues(validate, { point: [1, 'two'], unit: 'em' })).toEqual([
      { path: '/point/1', expected: 'must be number', got: 'string "two"' },
      { path: '/unit', expected: 'must be equal to constant', got: 'string "em"' },
    ]);
  });

  it('the same ids in two servers\u2019 draft-04 schemas do not collide', () => {
    const validator = new SchemaValidator();
    const text = validator.compile({
      ...pages,
      definitions: { page: { id: '#page', type: 'string' } },
    });
    const numbers = validator.compile(pages);
    expect(validator.issues(text, { sources: [{ path: 'a', pages: ['one'] }] })).toEqual([]);
    expect(validator.issues(numbers, { sources: [{ path: 'a', pages: ['one'] }] })).toHaveLength(1);
  });

  it('a schema broken under every draft still fails to compile, with ajv\u2019s message', () => {
    const validator = new SchemaValidator();
    expect(() =>
      validator.compile({ type: 'object', properties: { n: { type: 'numbr' } } }),
    ).toThrow(/schema is invalid/);
    expect(() =>
      validator.compile({ $schema: DRAFT_04, properties: { n: { minimum: 'zero' } } }),
    ).toThrow(/schema is invalid/);
  });

  it('an enum issue lists every allowed value up to a budget, never cut mid-word, and the value given', () => {
    const validator = new SchemaValidator();
    const few = validator.compile({
      type: 'object',
      properties: { state: { enum: ['open', 'closed', 'all'] } },
    });
    expect(validator.issues(few, { state: 'drafts' })).toEqual([
      {
        path: '/state',
        expected: 'one of ["open","closed","all"]',
        got: 'string "drafts"',
      },
    ]);
    const names = Array.from({ length: 400 }, (_, i) => `language_number_${i}`);
    const many = validator.compile({
      type: 'object',
      properties: { language: { enum: names } },
    });
    const [issue] = validator.issues(many, { language: 'klingon' });
    const listed = /^one of \[(.*), … and (\d+) more\]$/.exec(issue!.expected);
    expect(listed, issue!.expected).not.toBeNull();
    const shown = JSON.parse(`[${listed![1]!}]`) as string[];
    expect(shown).toEqual(names.slice(0, shown.length));
    expect(shown.length + Number(listed![2])).toBe(400);
    expect(issue!.expected.length).toBeLessThan(2_100);
    expect(issue!.got).toBe('string "klingon"');
  });
});

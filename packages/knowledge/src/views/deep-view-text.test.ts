import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@mcp-agent/core';
import { describeTool, DEEP_VIEW_BUDGETS } from './deep-view.js';
import { row, tool, view } from './deep-view-test-helpers.js';

describe('deep view: literals, formats, defaults and bounds', () => {
  const forty = Array.from({ length: 40 }, (_, i) => `value_${i}`);

  it('lists all 40 values of an enum: the signature shows a dozen and says how many more', () => {
    const described = view({
      type: 'object',
      properties: { kind: { type: 'string', enum: forty, description: 'The kind' } },
      required: ['kind'],
    });
    expect(described.call_signature).toBe(
      `p.t({ kind: ${forty
        .slice(0, 12)
        .map((v) => `"${v}"`)
        .join(' | ')} | … 28 more })`,
    );
    expect(described.parameters).toEqual([
      { path: 'kind', type: 'string', required: true, description: 'The kind', enum: forty },
    ]);
  });

  it('says how many enum values it left out past the budget, and full lists them all', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => `v${i}`);
    const schema = { type: 'object', properties: { v: { enum: many } } };
    const cut = row(schema, 'v');
    expect(cut?.enum?.length).toBeLessThan(2_000);
    expect(JSON.stringify(cut?.enum).length).toBeLessThanOrEqual(DEEP_VIEW_BUDGETS.enumCharacters);
    expect(cut?.enum_cut).toBe(
      `… and ${2_000 - (cut?.enum?.length ?? 0)} more values; describe_tools with "full": true, or tools describe --full on the CLI, shows all`,
    );
    const whole = describeTool(tool(schema), { full: true }).parameters[0];
    expect(whole?.enum).toEqual(many);
    expect(whole?.enum_cut).toBeUndefined();
  });

  it('shows short enums and const as literals in the signature, never as plain string', () => {
    const described = view({
      type: 'object',
      properties: {
        level: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] },
        mode: { const: 'fast' },
        choice: {
          anyOf: [
            { const: 1, description: 'one' },
            { const: 2, description: 'two' },
          ],
        },
      },
    });
    expect(described.call_signature).toBe(
      'p.t({ level?: "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h", mode?: "fast", choice?: 1 | 2 })',
    );
    expect(described.parameters.filter((p) => p.path.startsWith('choice('))).toEqual([
      { path: 'choice(option 1)', type: '1', description: 'one' },
      { path: 'choice(option 2)', type: '2', description: 'two' },
    ]);
  });

  it('keeps formats, defaults, bounds and examples as the schema wrote them', () => {
    const described = view({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, examples: [20] },
        name: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z]+$' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
        ratio: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
      },
    });
    expect(described.call_signature).toBe(
      'p.t({ id?: string, limit?: integer = 10, name?: string, tags?: string[], ratio?: number })',
    );
    expect(described.parameters).toEqual([
      { path: 'id', type: 'string', constraints: { format: 'uuid' } },
      {
        path: 'limit',
        type: 'integer',
        default: 10,
        constraints: { minimum: 1, maximum: 100 },
        examples: [20],
      },
      {
        path: 'name',
        type: 'string',
        constraints: { minLength: 1, maxLength: 64, pattern: '^[a-z]+$' },
      },
      { path: 'tags', type: 'string[]', constraints: { minItems: 1, uniqueItems: true } },
      { path: 'ratio', type: 'number', constraints: { exclusiveMinimum: 0, multipleOf: 0.5 } },
    ]);
  });

  it('shows maps from additionalProperties and patternProperties', () => {
    const described = view({
      type: 'object',
      properties: {
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        mixed: {
          type: 'object',
          properties: { id: { type: 'string' } },
          additionalProperties: { type: 'number', description: 'a score' },
        },
        env: { type: 'object', patternProperties: { '^[A-Z_]+$': { type: 'string' } } },
        closed: { type: 'object', additionalProperties: false },
      },
    });
    expect(described.call_signature).toBe(
      'p.t({ headers?: Record<string, string>, mixed?: { id?: string, [key: string]: number }, env?: Record<string, string>, closed?: {} })',
    );
    expect(described.parameters.map((p) => [p.path, p.type, p.description, p.constraints])).toEqual(
      [
        ['headers', 'Record<string, string>', undefined, undefined],
        ['mixed', 'object', undefined, undefined],
        ['mixed.id', 'string', undefined, undefined],
        ['mixed.*', 'number', 'a score', undefined],
        ['env', 'Record<string, string>', undefined, undefined],
        ['env.*', 'string', undefined, { keyPattern: '^[A-Z_]+$' }],
        ['closed', '{}', undefined, undefined],
      ],
    );
  });

  it('writes a long default short in the signature and whole on its row', () => {
    const fallback = { columns: ['name', 'type', 'size', 'modified', 'owner', 'group'] };
    const described = view({
      type: 'object',
      properties: { layout: { type: 'object', default: fallback } },
    });
    expect(described.call_signature).toBe(
      'p.t({ layout?: object = {"columns":["name","type","size","modif… })',
    );
    expect(described.parameters[0]?.default).toEqual(fallback);
  });
});

describe('deep view: descriptions verbatim', () => {
  it('never changes a character: underscores, markdown, paths, paragraphs', () => {
    const text =
      'Sets the session directory; see git_set_working_dir.\n\n**Wildcards**: `_ = one char`, `% = any`.\nSource: /srv/app/src/tools/git.ts:42\n\n- item';
    const described = view(
      { type: 'object', properties: { like: { type: 'string', description: text } } },
      { description: text },
    );
    expect(described.description).toBe(text);
    expect(described.parameters[0]?.description).toBe(text);
  });

  it('keeps a 3,857-character description whole', () => {
    const paragraph =
      'Apply surgical edits to files. Use old_string and new_string; keep_going_after_errors is **off**.\n\n';
    const text = paragraph.repeat(40).slice(0, 3_857);
    expect(text).toHaveLength(3_857);
    expect(view({ type: 'object' }, { description: text }).description).toBe(text);
  });

  it('cuts only past the budget, saying how much was cut and how to read it; full shows all', () => {
    const text = `${'word '.repeat(1_500)}end`;
    const cut = view({ type: 'object' }, { description: text }).description;
    const kept = cut.slice(0, cut.indexOf('… ['));
    expect(text.startsWith(kept)).toBe(true);
    expect(kept.length).toBeLessThanOrEqual(DEEP_VIEW_BUDGETS.description);
    expect(kept.length).toBeGreaterThan(DEEP_VIEW_BUDGETS.description * 0.9);
    expect(cut).toMatch(
      new RegExp(
        `… \\[${(text.length - kept.length).toLocaleString('en-US')} more characters cut; describe_tools with "full": true, or tools describe --full on the CLI, shows all\\]$`,
      ),
    );
    expect(
      describeTool(tool({ type: 'object' }, { description: text }), { full: true }).description,
    ).toBe(text);
    const emoji = '😀'.repeat(4_000);
    const cutEmoji = view({ type: 'object' }, { description: emoji }).description;
    expect(() => encodeURIComponent(cutEmoji)).not.toThrow();
  });

  it('falls back to the title when there is no description', () => {
    expect(view({ type: 'object' }, { title: 'Read a file' }).description).toBe('Read a file');
  });
});

describe('deep view: budgets', () => {
  it('lists output fields at every depth and says how many more past the limit', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`f${i}`, { type: 'string' }]),
    );
    const described = view(
      { type: 'object' },
      {
        outputSchema: {
          type: 'object',
          properties: {
            messages: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  from: {
                    type: 'object',
                    properties: {
                      address: { type: 'object', properties: { host: { type: 'string' } } },
                    },
                  },
                },
              },
            },
            ...properties,
          },
        },
      },
    );
    expect(described.output_fields[0]).toBe('messages[].from.address.host');
    expect(described.output_fields).toHaveLength(DEEP_VIEW_BUDGETS.outputFields + 1);
    expect(described.output_fields.at(-1)).toBe(
      '… and 61 more fields; describe_tools with "full": true, or tools describe --full on the CLI, shows all',
    );
  });

  it('writes objects past the signature budget as {…}, says so, and keeps every row', () => {
    let node: JsonObject = { type: 'string', description: 'x'.repeat(10) };
    for (let i = 0; i < 5; i++)
      node = {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 4 }, (_, k) => [`field_number_${i}_${k}`, node]),
        ),
      };
    const described = describeTool(tool({ type: 'object', properties: { deep: node } }), {});
    expect(described.call_signature.length).toBeLessThanOrEqual(
      DEEP_VIEW_BUDGETS.signature + 'p.t()'.length,
    );
    expect(described.call_signature).toContain('{…}');
    expect(described.notes).toContain(
      'Objects nested deeper in the call signature are written {…}: the parameter rows list their fields.',
    );
  });
});

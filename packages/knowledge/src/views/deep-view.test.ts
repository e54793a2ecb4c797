import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@mcp-agent/core';
import { describeTool } from './deep-view.js';
import { row, tool, view } from './deep-view-test-helpers.js';

// @modelcontextprotocol/server-memory 2026.8.31, tools/list, as the server sends it.
const CREATE_ENTITIES: JsonObject = {
  type: 'object',
  properties: {
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The name of the entity' },
          entityType: { type: 'string', description: 'The type of the entity' },
          observations: {
            type: 'array',
            items: { type: 'string' },
            description: 'An array of observation contents associated with the entity',
          },
        },
        required: ['name', 'entityType', 'observations'],
      },
    },
  },
  required: ['entities'],
  $schema: 'http://json-schema.org/draft-07/schema#',
};

describe('deep view: nested objects', () => {
  it("shows memory.create_entities' entity fields, each required, in the signature and the rows", () => {
    const described = describeTool({
      ...tool(CREATE_ENTITIES),
      id: 'memory.create_entities',
      serverId: 'memory',
      name: 'create_entities',
      description: 'Create multiple new entities in the knowledge graph',
    });
    expect(described).toEqual({
      tool_id: 'memory.create_entities',
      description: 'Create multiple new entities in the knowledge graph',
      call_signature:
        'memory.create_entities({ entities: { name: string, entityType: string, observations: string[] }[] })',
      parameters: [
        { path: 'entities', type: 'object[]', required: true },
        {
          path: 'entities[].name',
          type: 'string',
          required: true,
          description: 'The name of the entity',
        },
        {
          path: 'entities[].entityType',
          type: 'string',
          required: true,
          description: 'The type of the entity',
        },
        {
          path: 'entities[].observations',
          type: 'string[]',
          required: true,
          description: 'An array of observation contents associated with the entity',
        },
      ],
      output_fields: [],
    });
  });

  it('names odd property names safely, and lists required names the schema never describes', () => {
    const described = view({
      type: 'object',
      properties: { 'content-type': { type: 'string' }, 'a.b': { type: 'number' } },
      required: ['content-type', 'ghost'],
    });
    expect(described.call_signature).toBe(
      'p.t({ "content-type": string, "a.b"?: number, ghost: any })',
    );
    expect(described.parameters.map((p) => [p.path, p.required])).toEqual([
      ['content-type', true],
      ['["a.b"]', undefined],
      ['ghost', true],
    ]);
  });

  it('writes a tool without parameters as taking {}', () => {
    expect(view({ type: 'object' }).call_signature).toBe('p.t({})');
    expect(view({ type: 'object', properties: {} }).call_signature).toBe('p.t({})');
    expect(describeTool({ ...tool({}), inputSchema: undefined as never }).parameters).toEqual([]);
  });
});

describe('deep view: arrays, tuples, unions', () => {
  it('parenthesises a union inside arrays: (string | number | boolean | null)[][]', () => {
    const values = {
      type: 'object',
      properties: {
        values: {
          type: 'array',
          items: {
            type: 'array',
            items: {
              anyOf: [
                { type: 'string' },
                { type: 'number' },
                { type: 'boolean' },
                { type: 'null' },
              ],
            },
          },
        },
      },
      required: ['values'],
    };
    expect(view(values).call_signature).toBe(
      'p.t({ values: (string | number | boolean | null)[][] })',
    );
    expect(row(values, 'values')?.type).toBe('(string | number | boolean | null)[][]');
  });

  it('shows nullables from type lists, nullable: true and anyOf with null', () => {
    const described = view({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: 'integer', nullable: true },
        c: { anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'null' }] },
        d: { type: ['object', 'null'], properties: { x: { type: 'string' } }, required: ['x'] },
      },
    });
    expect(described.call_signature).toBe(
      'p.t({ a?: string | null, b?: integer | null, c?: integer[] | null, d?: { x: string } | null })',
    );
    // The one option with fields needs no option marker.
    expect(described.parameters.map((p) => p.path)).toEqual(['a', 'b', 'c', 'd', 'd.x']);
  });

  it('shows tuples from prefixItems and from draft-07 items arrays', () => {
    const described = view({
      type: 'object',
      properties: {
        point: {
          type: 'array',
          prefixItems: [{ type: 'number' }, { type: 'number', description: 'latitude' }],
          items: false,
        },
        pair: { type: 'array', items: [{ type: 'string' }, { const: 1 }] },
        open: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } },
      },
    });
    expect(described.call_signature).toBe(
      'p.t({ point?: [number, number], pair?: [string, 1, ...any[]], open?: [string, ...number[]] })',
    );
    expect(described.parameters.find((p) => p.path === 'point[1]')).toEqual({
      path: 'point[1]',
      type: 'number',
      description: 'latitude',
    });
  });

  it('shows unions of objects with each option\'s fields under "(option n)"', () => {
    const described = view({
      type: 'object',
      properties: {
        comments: {
          type: 'array',
          items: {
            anyOf: [
              {
                type: 'object',
                properties: { path: { type: 'string' }, position: { type: 'number' } },
                required: ['path', 'position'],
              },
              {
                type: 'object',
                properties: { path: { type: 'string' }, line: { type: 'number' } },
                required: ['path', 'line'],
              },
            ],
          },
        },
      },
    });
    expect(described.call_signature).toBe(
      'p.t({ comments?: ({ path: string, position: number } | { path: string, line: number })[] })',
    );
    expect(described.parameters.map((p) => [p.path, p.type, p.required])).toEqual([
      ['comments', '(object | object)[]', undefined],
      ['comments[](option 1).path', 'string', true],
      ['comments[](option 1).position', 'number', true],
      ['comments[](option 2).path', 'string', true],
      ['comments[](option 2).line', 'number', true],
    ]);
  });

  it('applies the keywords beside anyOf to each option ({type: string, anyOf: [{format}…]})', () => {
    const described = view({
      type: 'object',
      properties: { ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] } },
      required: ['ip'],
    });
    expect(described.call_signature).toBe('p.t({ ip: string })');
    expect(described.parameters).toEqual([
      { path: 'ip', type: 'string | string', required: true },
      { path: 'ip(option 1)', type: 'string', constraints: { format: 'ipv4' } },
      { path: 'ip(option 2)', type: 'string', constraints: { format: 'ipv6' } },
    ]);
  });

  it('merges allOf into one object, and shows an intersection when parts cannot merge', () => {
    const merged = view({
      type: 'object',
      properties: {
        user: {
          allOf: [
            { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
            { properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] },
          ],
        },
      },
    });
    expect(merged.call_signature).toBe('p.t({ user?: { id: string, age: integer } })');
    expect(merged.parameters.find((p) => p.path === 'user.age')).toEqual({
      path: 'user.age',
      type: 'integer',
      required: true,
      constraints: { minimum: 0 },
    });
    const apart = view({
      type: 'object',
      properties: {
        code: { allOf: [{ type: 'string', pattern: '^a' }, { pattern: 'b$' }] },
      },
    });
    expect(apart.call_signature).toBe('p.t({ code?: string & any })');
    expect(apart.parameters.map((p) => [p.path, p.constraints])).toEqual([
      ['code', undefined],
      ['code(part 1)', { pattern: '^a' }],
      ['code(part 2)', { pattern: 'b$' }],
    ]);
  });
});

describe('deep view: references', () => {
  it('resolves $defs and draft-07 definitions inline when used once', () => {
    const described = view({
      type: 'object',
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      definitions: { Size: { enum: ['s', 'm'] } },
      properties: {
        at: { $ref: '#/$defs/Point', description: 'where' },
        size: { $ref: '#/definitions/Size' },
      },
    });
    expect(described.call_signature).toBe('p.t({ at?: { x: number }, size?: "s" | "m" })');
    expect(described.parameters[0]).toEqual({ path: 'at', type: 'object', description: 'where' });
    expect(described.types).toBeUndefined();
  });

  it('shows a $defs entry used twice by name, defined once', () => {
    const described = view({
      type: 'object',
      $defs: {
        richText: {
          type: 'object',
          properties: { content: { type: 'string' } },
          required: ['content'],
        },
      },
      properties: {
        title: { type: 'array', items: { $ref: '#/$defs/richText' } },
        body: { type: 'array', items: { $ref: '#/$defs/richText' } },
      },
    });
    expect(described.call_signature).toBe('p.t({ title?: richText[], body?: richText[] })');
    expect(described.types).toEqual([
      {
        name: 'richText',
        type: '{ content: string }',
        parameters: [{ path: 'content', type: 'string', required: true }],
      },
    ]);
  });

  it('shows a $ref cycle by name once and never loops (self, mutual and root cycles)', () => {
    const tree = view({
      type: 'object',
      $defs: {
        Node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
          required: ['name'],
        },
      },
      properties: { root: { $ref: '#/$defs/Node' } },
      required: ['root'],
    });
    expect(tree.call_signature).toBe('p.t({ root: Node })');
    expect(tree.types).toEqual([
      {
        name: 'Node',
        type: '{ name: string, children?: Node[] }',
        parameters: [
          { path: 'name', type: 'string', required: true },
          { path: 'children', type: 'Node[]' },
        ],
      },
    ]);
    // A pointer into the properties (as zod writes repeats) and a reference to the root.
    const mind = view({
      type: 'object',
      properties: {
        data: {
          type: 'object',
          properties: {
            children: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  children: {
                    type: 'array',
                    items: { $ref: '#/properties/data/properties/children/items' },
                  },
                },
                required: ['name'],
              },
            },
          },
        },
        again: { $ref: '#' },
      },
    });
    expect(mind.call_signature).toBe('p.t(Root)');
    expect(mind.types?.map((t) => [t.name, t.type])).toEqual([
      ['Root', '{ data?: { children?: ChildrenItem[] }, again?: Root }'],
      ['ChildrenItem', '{ name: string, children?: ChildrenItem[] }'],
    ]);
    const mutual = view({
      type: 'object',
      $defs: {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
        B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } },
      },
      properties: { a: { $ref: '#/$defs/A' } },
    });
    expect(mutual.call_signature).toBe('p.t({ a?: A })');
    expect(mutual.types?.map((t) => t.type)).toEqual(['{ b?: { a?: A } }']);
  });

  it('shows an unresolvable $ref as any with the reference, and stays bounded on exploding schemas', () => {
    expect(row({ type: 'object', properties: { x: { $ref: 'https://e.x/s.json' } } }, 'x')).toEqual(
      { path: 'x', type: 'any', constraints: { $ref: 'https://e.x/s.json' } },
    );
    // Each level refers to the one below twice through plain pointers: 2^40 paths inlined.
    const properties: JsonObject = { l0: { type: 'string' } };
    for (let i = 1; i <= 40; i++)
      properties[`l${i}`] = {
        type: 'object',
        properties: {
          a: { $ref: `#/properties/l${i - 1}` },
          b: { $ref: `#/properties/l${i - 1}` },
        },
      };
    const exploded = view({ type: 'object', properties });
    expect(exploded.notes?.join(' ')).toMatch(/too large to convert whole/);
    expect(exploded.notes?.join(' ')).toMatch(/more parameter rows not listed/);
    expect(exploded.call_signature.length).toBeLessThan(100_000);
  });
});

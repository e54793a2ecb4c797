import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '@mcp-agent/core';
import { manifestOf } from '../bench/bench-catalog.js';
import { describeTool } from './deep-view.js';
import { inventoryView } from './inventory-view.js';
import { outputFields, trimText } from './schema-summary.js';
import { countTokens } from './token-count.js';

const spec = (providerId: string, name: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({
  id: `${providerId}.${name}`,
  providerId,
  name,
  description: '',
  inputSchema: { type: 'object' },
  ...extra,
});

describe('deep view', () => {
  it('debloats a tool: required and optional params, enum, default, output fields, signature', () => {
    const view = describeTool(
      spec('gmail', 'search_messages', {
        description:
          'Search messages.\n\nLong internal notes from /srv/app/src/gmail/search.ts:42 that nobody needs.',
        inputSchema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'Gmail search syntax' },
            max: { type: 'integer', default: 10 },
            order: { type: 'string', enum: ['newest', 'oldest'] },
            labels: { type: 'array', items: { type: 'string' } },
          },
          required: ['query'],
        },
        outputSchema: {
          type: 'object',
          properties: {
            messages: {
              type: 'array',
              items: {
                type: 'object',
                properties: { subject: { type: 'string' }, from: { type: 'string' } },
              },
            },
            next: { type: 'string' },
          },
        },
      }),
    );
    expect(view).toEqual({
      tool_id: 'gmail.search_messages',
      description: 'Search messages.',
      input_params: {
        required: [{ name: 'query', type: 'string', description: 'Gmail search syntax' }],
        optional: [
          { name: 'max', type: 'integer', default: 10 },
          { name: 'order', type: '"newest" | "oldest"', enum: ['newest', 'oldest'] },
          { name: 'labels', type: 'string[]' },
        ],
      },
      output_fields: ['messages[].subject', 'messages[].from', 'next'],
      call_signature:
        'gmail.search_messages({ query: string, max?: integer = 10, order?: "newest" | "oldest", labels?: string[] })',
    });
  });

  it('handles tools without description or schema, and unicode or very long descriptions', () => {
    expect(describeTool(spec('m', 'bare'))).toMatchObject({
      description: '',
      input_params: { required: [], optional: [] },
      output_fields: [],
      call_signature: 'm.bare({})',
    });
    const long = describeTool(spec('m', 'long', { description: '😀'.repeat(1_000) }));
    expect(long.description.length).toBeLessThanOrEqual(400);
    expect(long.description).not.toMatch(/[\uD800-\uDBFF]…$/);
  });

  it('outputFields stops at a limit and trimText never splits a surrogate pair', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`f${i}`, { type: 'string' }]),
    );
    expect(outputFields({ type: 'object', properties }, 40)).toHaveLength(40);
    const cut = trimText(`a${'😀'.repeat(10)}`, 6);
    expect(() => encodeURIComponent(cut)).not.toThrow();
  });
});

describe('inventory view', () => {
  it('lists providers and tool names, deterministically', () => {
    const manifest = manifestOf([
      spec('memory', 'read_graph'),
      spec('github', 'create_issue'),
      spec('github', 'add_comment'),
    ]);
    const view = inventoryView(manifest);
    expect(view).toBe(
      [
        '3 tools on 2 servers. Find tools with search_tools, read them with describe_tools, then call them.',
        '## github (2 tools)',
        'add_comment, create_issue',
        '## memory (1 tools)',
        'read_graph',
      ].join('\n'),
    );
    expect(inventoryView(manifest)).toBe(view);
  });

  it('says so when there are no servers', () => {
    expect(inventoryView({ providers: [] })).toMatch(/No MCP servers are connected/);
  });

  it('degrades a huge catalog to fit the budget and says search finds the rest', () => {
    const specs = Array.from({ length: 4_000 }, (_, i) =>
      spec(`server-${i % 300}`, `tool_number_${i}`),
    );
    for (const budget of [300, 1_500, 4_000]) {
      const view = inventoryView(manifestOf(specs), { tokenBudget: budget });
      expect(countTokens(view)).toBeLessThanOrEqual(budget);
      expect(view).toMatch(/search_tools finds the rest/);
    }
    expect(inventoryView(manifestOf(specs), { tokenBudget: 1_500 })).toMatch(
      /more servers: search_tools covers them/,
    );
  });

  it('marks unavailable providers with their reason', () => {
    const manifest = manifestOf([spec('github', 'create_issue')]);
    const broken = {
      providers: manifest.providers.map((p) => ({
        ...p,
        available: false,
        reason: 'Server "github" failed: HTTP 502.',
      })),
    };
    expect(inventoryView(broken)).toMatch(
      /## github \(1 tools\) \[unavailable: Server "github" failed: HTTP 502\.\]/,
    );
  });
});

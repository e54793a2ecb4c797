import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '@mcp-agent/core';
import { manifestOf } from '../testing/bench-catalog.js';
import { inventoryView } from './inventory-view.js';
import { firstLine, trimText } from './description-text.js';
import { outputFields } from './schema-summary.js';
import { countTokens } from './token-count.js';

const spec = (serverId: string, name: string, extra: Partial<ToolSpec> = {}): ToolSpec => ({
  id: `${serverId}.${name}`,
  serverId,
  name,
  description: '',
  inputSchema: { type: 'object' },
  ...extra,
});

describe('snippets', () => {
  it('trimText keeps the original characters and marks a cut with …', () => {
    const text =
      'Set the working dir with git_set_working_dir; `_ = one char`.\n\nMore **text** here.';
    expect(trimText(text, 500)).toBe(text);
    const cut = trimText(text, 40);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(40);
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
    expect(trimText(`  ${text}\n`, 500)).toBe(text);
    const emoji = trimText(`a${'😀'.repeat(10)}`, 6);
    expect(() => encodeURIComponent(emoji)).not.toThrow();
  });

  it('firstLine keeps one line for one-line places, marked when more follows', () => {
    expect(firstLine('Files on disk', 100)).toBe('Files on disk');
    expect(firstLine('\n  Files on disk\nSecond line', 100)).toBe('Files on disk…');
    expect(firstLine('a_b '.repeat(50), 20)).toBe('a_b a_b a_b a_b…');
  });

  it('outputFields lists every path up to its limit, then says how many more', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`f${i}`, { type: 'string' }]),
    );
    const fields = outputFields({ type: 'object', properties }, 40);
    expect(fields).toHaveLength(41);
    expect(fields.at(-1)).toBe(
      '… and 60 more fields; describe_tools with "full": true, or tools describe --full on the CLI, shows all',
    );
    expect(outputFields({ type: 'object', properties }, Infinity)).toHaveLength(100);
  });
});

describe('inventory view', () => {
  it('lists servers and tool names, deterministically', () => {
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
    expect(inventoryView({ servers: [] })).toMatch(/No MCP servers are connected/);
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

  it('marks unavailable servers with their reason', () => {
    const manifest = manifestOf([spec('github', 'create_issue')]);
    const broken = {
      servers: manifest.servers.map((p) => ({
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

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { Dispatcher } from '@mcp-agent/actions';
import { MemoryToolCallPool } from '@mcp-agent/actions/testing';
import { Knowledge } from '@mcp-agent/knowledge';
import { openRegistry, type Registry } from '@mcp-agent/registry';
import { MetaToolSession } from './meta-tool-session.js';
import type { SharedDescribed } from './shared-described.js';

// Two copies of one session (two gateway processes serving it) over one described set.
let registry: Registry;
const ctx = createContext({ userId: 'alice' });
const answer = { content: [{ type: 'text' as const, text: 'ok' }] };

beforeAll(async () => {
  registry = await openRegistry({
    url: ':memory:',
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
  });
  await registry.addServer(ctx, {
    id: 'notes',
    transport: 'streamable-http',
    url: 'https://notes.example/mcp',
  });
  await registry.replaceCatalog(ctx, 'notes', [
    { name: 'list_notes', description: 'List notes', inputSchema: { type: 'object' } },
    { name: 'add_note', description: 'Add a note', inputSchema: { type: 'object' } },
  ]);
});
afterAll(async () => {
  await registry?.close();
});

function copy(stored: Set<string>, counts: { loads: number; told: string[][] }) {
  const shared: SharedDescribed = {
    described: async (toolIds) => {
      counts.told.push([...toolIds]);
      for (const id of toolIds) stored.add(id);
    },
    load: async () => {
      counts.loads += 1;
      return [...stored];
    },
  };
  const pool = new MemoryToolCallPool({ 'notes.list_notes': answer, 'notes.add_note': answer });
  return new MetaToolSession({
    knowledge: new Knowledge({ registry }),
    dispatcher: new Dispatcher({ registry, pool }),
    shared,
  });
}

describe('a session shared by several copies', () => {
  it('a tool described on one copy is called on the other, which reads the shared set only on the miss', async () => {
    const stored = new Set<string>();
    const counts = { loads: 0, told: [] as string[][] };
    const first = copy(stored, counts);
    const second = copy(stored, counts);
    const described = await first.run(
      'describe_tools',
      { tool_ids: ['notes.list_notes'] },
      { ctx },
    );
    expect(described.ok).toBe(true);
    // Told once, and not again when described a second time.
    await first.run('describe_tools', { tool_ids: ['notes.list_notes'] }, { ctx });
    expect(counts.told).toEqual([['notes.list_notes']]);

    const call = { tool_id: 'notes.list_notes', arguments: {} };
    expect((await second.run('call_tool', call, { ctx })).ok).toBe(true);
    expect(counts.loads).toBe(1);
    // Known now: later calls read nothing.
    expect((await second.run('call_tool', call, { ctx })).ok).toBe(true);
    expect((await first.run('call_tool', call, { ctx })).ok).toBe(true);
    expect(counts.loads).toBe(1);

    // A tool described nowhere is refused as before, after one read.
    const refused = await second.run(
      'call_tool',
      { tool_id: 'notes.add_note', arguments: {} },
      { ctx },
    );
    expect(refused.ok).toBe(false);
    expect(refused.value).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
    expect(counts.loads).toBe(2);
  });

  it('a shared set that cannot be read leaves the call refused as undescribed, not failed otherwise', async () => {
    const pool = new MemoryToolCallPool({ 'notes.list_notes': answer });
    const session = new MetaToolSession({
      knowledge: new Knowledge({ registry }),
      dispatcher: new Dispatcher({ registry, pool }),
      shared: {
        described: async () => undefined,
        load: () => Promise.reject(new Error('database gone')),
      },
    });
    const refused = await session.run(
      'call_tool',
      { tool_id: 'notes.list_notes', arguments: {} },
      { ctx },
    );
    expect(refused.value).toMatchObject({
      error: {
        code: 'INVALID_ARGUMENTS',
        message: expect.stringMatching(/^Describe notes\.list_notes/),
      },
    });
    expect(pool.calls).toHaveLength(0);
  });
});

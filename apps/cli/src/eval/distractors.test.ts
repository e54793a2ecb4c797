import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { openAgentStack } from '@mcp-agent/agent';
import { createContext, SERVER_ID_PATTERN } from '@mcp-agent/core';
import { serverFixtures } from '@mcp-agent/test-support';
import {
  benchDataDir,
  distractorIds,
  distractorsBeside,
  readDistractorCatalogs,
  type RecordedServer,
} from './distractor-catalogs.js';
import { startDistractorHost } from './distractor-host.js';
import { connectDistractors } from './suite-size.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-agent-distractors-'));
  folders.push(dir);
  return dir;
}

const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city' } },
  required: ['city'],
};

// Benchmark data in the format of ../shared/bench: a catalog with schemas, one without.
function benchData(): string {
  const dir = tempDir();
  const write = (catalog: string, rows: object[]) => {
    mkdirSync(join(dir, 'catalogs', catalog), { recursive: true });
    writeFileSync(
      join(dir, 'catalogs', catalog, 'corpus.jsonl'),
      `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`,
    );
  };
  write('real-mcp-tools', [
    {
      id: 'w/forecast',
      server: 'Weather Co',
      name: 'forecast',
      description: 'Forecast',
      inputSchema: SCHEMA,
    },
    { id: 'w/alerts', server: 'Weather Co', name: 'alerts', inputSchema: SCHEMA },
    // A recording of a server the suite connects itself (its tools' names).
    { id: 'n/read', server: 'notes-copy', name: 'read_note', inputSchema: SCHEMA },
    { id: 'n/write', server: 'notes-copy', name: 'write_note', inputSchema: SCHEMA },
  ]);
  write('toolsdk-distractors', [
    {
      id: 'a/send',
      server: '@acme/mail',
      name: 'send',
      description: 'Send an email',
      category: 'x',
    },
    { id: 'b/echo', server: 'weather-co', name: 'echo', description: 'Echo' },
  ]);
  return dir;
}

describe('the recorded catalogs', () => {
  it('reads every server of both catalogs in file order, an empty-object schema where none was recorded', () => {
    const servers = readDistractorCatalogs(benchData());
    expect(servers.map((s) => [s.name, s.catalog, s.tools.length])).toEqual([
      ['Weather Co', 'real-mcp-tools', 2],
      ['notes-copy', 'real-mcp-tools', 2],
      ['@acme/mail', 'toolsdk-distractors', 1],
      ['weather-co', 'toolsdk-distractors', 1],
    ]);
    expect(servers[0]?.tools[0]).toEqual({
      name: 'forecast',
      description: 'Forecast',
      inputSchema: SCHEMA,
    });
    expect(servers[2]?.tools[0]).toEqual({
      name: 'send',
      description: 'Send an email',
      inputSchema: { type: 'object' },
    });
  });

  it('fails naming the folder when the data is missing, and says how to point at it', () => {
    const missing = join(tempDir(), 'nowhere');
    expect(() => readDistractorCatalogs(missing)).toThrow(
      new RegExp(
        `${join(missing, 'catalogs', 'real-mcp-tools', 'corpus.jsonl').replace(/[/\\]/g, '.')} is missing.*MCP_AGENT_BENCH_DIR.*--size small`,
      ),
    );
    expect(benchDataDir({ MCP_AGENT_BENCH_DIR: missing })).toBe(missing);
    // Beside the repository's root by default (this checkout's parent folder).
    expect(benchDataDir({})).toMatch(/[/\\]shared[/\\]bench[/\\]?$/);
  });

  it('leaves out a recording of a connected server and gives valid ids that clash with nothing', () => {
    const servers = readDistractorCatalogs(benchData());
    const kept = distractorsBeside(servers, [['read_note', 'write_note', 'list_notes']]);
    expect(kept.map((s) => s.name)).toEqual(['Weather Co', '@acme/mail', 'weather-co']);
    // One shared name is no copy.
    expect(distractorsBeside(servers, [['read_note']])).toHaveLength(4);
    const ids = distractorIds(kept, ['weather-co']);
    expect(ids).toEqual(['weather-co-2', 'acme-mail', 'weather-co-3']);
    for (const id of ids) expect(id).toMatch(SERVER_ID_PATTERN);
  });
});

describe('the distractor host', () => {
  const recorded: RecordedServer[] = [
    {
      name: 'Weather Co',
      catalog: 'real-mcp-tools',
      tools: [{ name: 'forecast', description: 'Forecast', inputSchema: SCHEMA }],
    },
  ];

  it('serves a recording as an MCP server over streamable HTTP: its tools verbatim, every call an error that says why', async () => {
    const host = await startDistractorHost(recorded, ['weather']);
    const client = new Client({ name: 'test', version: '1' });
    try {
      const url = host.servers[0]!.url;
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect(client.getServerVersion()).toMatchObject({ name: 'Weather Co' });
      expect((await client.listTools()).tools).toEqual([
        { name: 'forecast', description: 'Forecast', inputSchema: SCHEMA },
      ]);
      const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(
        /Weather Co is a recorded catalog \(real-mcp-tools\) connected as a distractor: its tool \\"forecast\\" cannot run here/,
      );
      expect(host.calls).toBe(1);
      expect((await fetch(url)).status).toBe(405);
      expect((await fetch(url.replace(/weather$/, 'other'), { method: 'POST' })).status).toBe(404);
    } finally {
      await client.close();
      await host.close();
    }
  });

  it('connects the recordings through the registry and pool beside the real servers, a copy of one left out', async () => {
    const home = tempDir();
    const stack = await openAgentStack({ home, env: { PATH: process.env.PATH } });
    const ctx = createContext({ userId: 'eval' });
    let connected: Awaited<ReturnType<typeof connectDistractors>> | undefined;
    try {
      // A real server: the scripted fixture listing the notes tools the copy records.
      await stack.registry.addServer(ctx, {
        id: 'notes',
        transport: 'stdio',
        command: process.execPath,
        args: [serverFixtures.scripted, notesServer(home)],
        env: {},
      });
      await stack.pool.waitForReady(ctx, ['notes'], { timeoutMs: 30_000 });
      connected = await connectDistractors(
        stack,
        ctx,
        [{ id: 'notes' }],
        readDistractorCatalogs(benchData()),
      );
      expect(connected).toMatchObject({ servers: 3, tools: 4, leftOut: ['notes-copy'] });
      const manifest = await stack.knowledge.manifest(ctx);
      expect(manifest.servers.map((s) => s.server.id).sort()).toEqual([
        'acme-mail',
        'notes',
        'weather-co',
        'weather-co-2',
      ]);
      const call = await stack.dispatcher.dispatchTool(ctx, 'weather-co.forecast', {
        city: 'Oslo',
      });
      expect(call.ok).toBe(false);
    } finally {
      await stack.close();
      await connected?.close();
    }
  });
});

// The scripted stdio fixture of test-support, listing three notes tools.
function notesServer(dir: string): string {
  const script = join(dir, 'notes.json');
  writeFileSync(
    script,
    JSON.stringify({
      tools: ['read_note', 'write_note', 'list_notes'].map((name) => ({
        name,
        inputSchema: { type: 'object' },
      })),
    }),
  );
  return script;
}

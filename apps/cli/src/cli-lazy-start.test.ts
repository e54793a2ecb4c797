// Lazy start on the built CLI and the real stdio gateway: a request starts only the servers it
// calls, and a broken server fails only the calls to it, naming itself and why.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverFixtures } from '@mcp-agent/test-support';
import { addNodeServer, cliHome, gatewayClient } from './cli-test-helpers.js';

const { home, env, run } = cliHome('mcp-cli-lazy-');
const log = join(home, 'started.log');

// Each server notes its id in the log as it starts, then runs the fixture given.
function addLogged(id: string, fixture: string, ...args: string[]): void {
  addNodeServer(run, id, [
    serverFixtures.startLogging,
    log,
    id,
    pathToFileURL(fixture).href,
    ...args,
  ]);
}

function startedSince(): string[] {
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    // nothing started yet
  }
  writeFileSync(log, '');
  return [...new Set(text.split('\n').filter(Boolean))].sort();
}

beforeAll(() => {
  const script = join(home, 'notes.json');
  writeFileSync(
    script,
    JSON.stringify({
      tools: [
        {
          name: 'lookup',
          description: 'Look up a note by its key',
          inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
        },
      ],
      results: { lookup: { content: [{ type: 'text', text: 'found it' }] } },
    }),
  );
  addLogged('notes', serverFixtures.scripted, script);
  addLogged('hangs', serverFixtures.misbehaving, 'hang-init');
  addLogged('broken', serverFixtures.crashing);
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

// Each case starts the binary and real servers, some twice: seconds each, more under load.
describe('lazy start', { timeout: 90_000 }, () => {
  it('exec starts only the server its script calls; the others are named only to a script that builds names', () => {
    startedSince();
    const script = join(home, 'one-call.js');
    writeFileSync(script, 'return await tools.notes.lookup({ key: "a" });');
    const result = run(['exec', script]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('found it');
    expect(startedSince()).toEqual(['notes']);
    expect(result.stderr).not.toMatch(/broken|hangs/);
    // A script that picks its tools at run time may mean the servers it cannot reach: named.
    const dynamic = join(home, 'dynamic.js');
    writeFileSync(dynamic, 'const id = "notes"; return await tools[id].lookup({ key: "a" });');
    const named = run(['exec', dynamic]);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toMatch(/broken, hangs have never been connected/);
    expect(startedSince()).toEqual(['notes']);
  });

  it('a call to a server that dies names the server and why, and fails only that call', () => {
    startedSince();
    const script = join(home, 'two-calls.js');
    writeFileSync(
      script,
      [
        'const good = await tools.notes.lookup({ key: "a" });',
        'let bad;',
        'try { await tools.broken.anything({}); } catch (error) { bad = error.message; }',
        'return { good, bad };',
      ].join('\n'),
    );
    const result = run(['exec', script]);
    expect(result.code, result.stderr).toBe(0);
    const value = JSON.parse(result.stdout) as { good: unknown; bad: string };
    expect(JSON.stringify(value.good)).toContain('found it');
    expect(value.bad).toMatch(/broken\.anything is not available/);
    expect(result.stderr).toMatch(/note: broken could not be connected[^\n]*Cannot find module/);
    expect(startedSince()).not.toContain('hangs');
  });

  it("the gateway's first search_tools answers from stored catalogs, starting no server", async () => {
    // Every server tried once, as a returning user's are: the hanging one has its error stored.
    run(['servers', 'status', '--timeout', '2']);
    startedSince();
    const client = await gatewayClient(home, env);
    try {
      const started = performance.now();
      const answer = await client.callTool({
        name: 'search_tools',
        arguments: { query: 'look up a note' },
      });
      // Generous for a loaded machine; before lazy start it waited out the hanging server (30 s).
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(answer.isError).not.toBe(true);
      expect(JSON.stringify(answer.content)).toContain('notes.lookup');
      expect(startedSince()).toEqual([]);
      await client.callTool({ name: 'describe_tools', arguments: { tool_ids: ['notes.lookup'] } });
      const called = await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'notes.lookup', arguments: { key: 'a' } },
      });
      expect(JSON.stringify(called.content)).toContain('found it');
      expect(startedSince()).toEqual(['notes']);
    } finally {
      await client.close();
    }
  });

  it("search's note on a server without a catalog is its last real state", () => {
    run(['servers', 'status', '--timeout', '2']);
    const searched = run(['tools', 'search', 'look up a note']);
    expect(searched.code, searched.stderr).toBe(0);
    expect(searched.stdout).toContain('notes.lookup');
    expect(searched.stderr).toMatch(
      /note: broken is not included: its last connection attempt failed \([^\n]*Cannot find module[^\n]*\); "mcp-agent servers status broken" tries again\./,
    );
    expect(searched.stderr).not.toMatch(/broken[^\n]* not been connected yet/);
  });
});

// `pnpm bench cold-start [--servers 16] [--runs 3]`: what a request pays for the servers it does
// not use. A temporary home with `servers` configured servers (real MCP servers over stdio, one
// of them hanging on initialize), each logging its start to a file; their catalogs stored by one
// `servers status`, as a returning user's are. Then, each from a new process, as a user runs
// them: `tools call` of one tool, `exec` of a script that makes the same one call, and the
// gateway's first `search_tools` (`serve --stdio`, spoken to by the SDK's client). Each
// request's servers started that it did not call are counted.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serverFixtures } from '@mcp-agent/test-support';

const cli = fileURLToPath(
  new URL('../../node_modules/@mcp-agent/cli/dist/cli.js', import.meta.url),
);

/** Options of {@link runColdStart}. */
export interface ColdStartOptions {
  /** Configured servers, one of them hanging; at least 2; default 16. */
  readonly servers?: number;
  /** Runs of each timed request (the median is reported); default 3. */
  readonly runs?: number;
}

export async function runColdStart(options: ColdStartOptions = {}): Promise<object> {
  const count = Math.max(2, options.servers ?? 16);
  const runs = Math.max(1, options.runs ?? 3);
  const home = mkdtempSync(join(tmpdir(), 'mcp-bench-cold-'));
  try {
    const log = join(home, 'started.log');
    // Each server notes its id on start, then is the scripted (or, last, the hanging) server.
    const ids = Array.from({ length: count }, (_, i) => `s${String(i + 1).padStart(2, '0')}`);
    const hanging = ids.at(-1)!;
    const mcpServers = Object.fromEntries(
      ids.map((id) => {
        const hangs = id === hanging;
        const script = join(home, `${id}.json`);
        if (!hangs) writeFileSync(script, JSON.stringify(scriptOf(id)));
        const entry = pathToFileURL(hangs ? serverFixtures.misbehaving : serverFixtures.scripted);
        return [
          id,
          {
            command: process.execPath,
            args: [serverFixtures.startLogging, log, id, entry.href, hangs ? 'hang-init' : script],
          },
        ];
      }),
    );
    const config = join(home, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers }));
    const run = (args: readonly string[], input?: string) => {
      const started = performance.now();
      const result = spawnSync(process.execPath, [cli, '--home', home, '--json', ...args], {
        encoding: 'utf8',
        ...(input === undefined ? {} : { input }),
      });
      return { ms: performance.now() - started, status: result.status, stdout: result.stdout };
    };
    const imported = run(['servers', 'import', config]);
    if (imported.status !== 0) throw new Error(`servers import failed: ${imported.stdout}`);
    // A returning user: every healthy server's catalog is stored; the hanging one has none.
    run(['servers', 'status', '--timeout', '5']);
    const startedSince = (): string[] => {
      const text = (() => {
        try {
          return readFileSync(log, 'utf8');
        } catch {
          return '';
        }
      })();
      writeFileSync(log, '');
      return [...new Set(text.split('\n').filter(Boolean))];
    };
    const tool = 's01.s01_lookup';
    const args = JSON.stringify({ key: 'alpha' });
    const script = join(home, 'one-call.js');
    writeFileSync(script, `return await tools.s01.s01_lookup(${args});`);

    // Interleaved, so that a loaded machine weighs on both alike.
    const callTimes: Timing[] = [];
    const execTimes: Timing[] = [];
    const callStarted = new Set<string>();
    const execStarted = new Set<string>();
    startedSince();
    for (let i = 0; i < runs; i++) {
      callTimes.push(run(['tools', 'call', tool, '--args', args]));
      for (const id of startedSince()) if (id !== 's01') callStarted.add(id);
      execTimes.push(run(['exec', script]));
      for (const id of startedSince()) if (id !== 's01') execStarted.add(id);
    }
    const call = median(callTimes);
    const exec = median(execTimes);
    const gateway = await firstSearch(home);
    const gatewayStarted = startedSince();
    return {
      bench: 'cold-start',
      servers: count,
      hanging,
      runs,
      tools_call_ms: call.median,
      tools_call_ok: call.ok,
      exec_ms: exec.median,
      exec_ok: exec.ok,
      exec_over_tools_call: round(exec.median / call.median),
      gateway_connect_ms: round(gateway.connectMs),
      gateway_first_search_ms: round(gateway.ms),
      gateway_search_ok: gateway.ok,
      started_not_called: {
        tools_call: callStarted.size,
        exec: execStarted.size,
        gateway_search: gatewayStarted.length,
      },
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// Four tools per server, named after it so that searches can tell them apart.
function scriptOf(id: string): object {
  const tool = (verb: string, what: string) => ({
    name: `${id}_${verb}`,
    description: `${verb} ${what} in the ${id} store`,
    inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
  });
  return {
    tools: [
      tool('lookup', 'a record'),
      tool('list', 'records'),
      tool('delete', 'a record'),
      tool('count', 'records'),
    ],
    results: { [`${id}_lookup`]: { content: [{ type: 'text', text: `${id}: found` }] } },
  };
}

interface Timing {
  readonly ms: number;
  readonly status: number | null;
}

function median(times: readonly Timing[]): { median: number; ok: boolean } {
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  return {
    median: round(sorted[Math.floor(sorted.length / 2)]!),
    ok: times.every((t) => t.status === 0),
  };
}

// The gateway's first request of a session (`ms`, from the call to its answer), after the
// client's connect (`connectMs`: the gateway process's start and the MCP handshake).
async function firstSearch(home: string): Promise<{ connectMs: number; ms: number; ok: boolean }> {
  const client = new Client({ name: 'bench', version: '1' });
  const started = performance.now();
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cli, '--home', home, 'serve', '--stdio'],
      stderr: 'ignore',
    }),
  );
  const connected = performance.now();
  try {
    const answer = await client.callTool(
      { name: 'search_tools', arguments: { query: 'look up a record' } },
      undefined,
      { timeout: 120_000 },
    );
    return {
      connectMs: connected - started,
      ms: performance.now() - connected,
      ok: answer.isError !== true,
    };
  } finally {
    await client.close();
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

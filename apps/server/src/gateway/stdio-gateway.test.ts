import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { alive, descendants, serverFixtures } from '@mcp-agent/test-support';
import { wireModeFrom } from '@mcp-agent/wire';
import { MCP_INITIALIZE } from '../api/api-test-helpers.js';

// `mcp-agent serve --stdio` as a client launches it: the built CLI, spoken to in raw lines.
const cli = fileURLToPath(new URL('../../../cli/dist/cli.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'mcp-stdio-gateway-'));
const env = {
  ...process.env,
  MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
  MCP_AGENT_USER: 'alice',
};
const started: ChildProcess[] = [];

// The gateway process, and a way to wait for the reply with a given id.
function gateway() {
  const child = spawn(process.execPath, [cli, '--home', home, 'serve', '--stdio'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  started.push(child);
  let out = '';
  const waiting = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const check of waiting) check();
  });
  const reply = (id: number) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const check = () => {
        const line = out
          .split('\n')
          .find((l) => l.includes(`"id":${id},`) || l.endsWith(`"id":${id}}`));
        if (line === undefined) return;
        waiting.delete(check);
        resolve(JSON.parse(line) as Record<string, unknown>);
      };
      waiting.add(check);
      check();
    });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const call = (id: number, name: string, args: object) => {
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    return reply(id);
  };
  return { child, reply, send, call };
}

async function initialized(served: ReturnType<typeof gateway>) {
  served.send(MCP_INITIALIZE);
  await served.reply(1);
  served.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

beforeAll(() => {
  const script = join(home, 'tools.json');
  writeFileSync(
    script,
    JSON.stringify({
      tools: [
        { name: 'read_notes', description: 'Read the notes', inputSchema: { type: 'object' } },
      ],
    }),
  );
  const added = spawnSync(
    process.execPath,
    [cli, '--home', home, 'servers', 'add', 'notes', '--command', process.execPath].concat([
      '--arg',
      serverFixtures.scripted,
      '--arg',
      script,
    ]),
    { env, encoding: 'utf8' },
  );
  expect(added.status, added.stderr).toBe(0);
});
afterEach(() => {
  // A gateway that did not exit is killed with all it started, so a failure leaves nothing.
  for (const child of started.splice(0)) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    for (const pid of [child.pid, ...descendants(child.pid)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the stdio gateway (mcp-agent serve --stdio)', () => {
  it('GW-04 when the client closes stdin it exits within 5 s and leaves no descendants', async () => {
    const served = gateway();
    await initialized(served);
    // Start what it holds: the user's MCP server and a sandbox worker.
    expect(JSON.stringify(await served.call(2, 'search_tools', { query: 'notes' }))).toMatch(
      /notes\.read_notes/,
    );
    expect(JSON.stringify(await served.call(3, 'run_code', { code: 'return 6 * 7' }))).toMatch(
      /42/,
    );
    const held = descendants(served.child.pid as number);
    expect(held.length).toBeGreaterThanOrEqual(2);
    const exited = new Promise<number | null>((resolve) => served.child.once('exit', resolve));
    const closedAt = performance.now();
    served.child.stdin.end();
    expect(await exited).toBe(0);
    expect(performance.now() - closedAt).toBeLessThan(5_000);
    // Gone with it; a killed worker may take a moment to be reaped.
    await expect.poll(() => held.filter(alive), { timeout: 1_000 }).toEqual([]);
  });

  // The line bound is StdioLineTransport's: with MCP_AGENT_WIRE=sdk the SDK's ReadBuffer keeps a
  // line whole, a divergence packages/wire/README.md lists, so this case is the lanes' alone.
  it.runIf(wireModeFrom(process.env) === 'lanes')(
    'GW-04 an 11 MB line gets a JSON-RPC error naming its size, and the session goes on',
    async () => {
      const served = gateway();
      await initialized(served);
      const query = 'x'.repeat(11 * 1024 * 1024);
      // Written as an SDK client serialises a request: its id comes last.
      served.child.stdin.write(
        `{"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"${query}"}},"jsonrpc":"2.0","id":7}\n`,
      );
      expect(await served.reply(7)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32600,
          message: expect.stringMatching(/The message is 11534\d{3} bytes, more than the 4194304/),
        },
      });
      expect(JSON.stringify(await served.call(8, 'search_tools', { query: 'notes' }))).toMatch(
        /notes\.read_notes/,
      );
    },
  );

  it('serves the user given by --user, to the SDK client', async () => {
    const { MCP_AGENT_USER: _user, ...withoutUser } = env;
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cli, '--home', home, '--user', 'alice', 'serve', '--stdio'],
        env: withoutUser as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    const hits = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'read notes' },
    });
    expect(
      JSON.parse((hits as { content: { text: string }[] }).content[0]!.text).queries[0].matches[0]
        .tool_id,
    ).toBe('notes.read_notes');
    await client.close();
  });
});

// The paths of `pnpm bench gateway` to server-everything's `echo`, each behind an SDK client:
// direct stdio, our stdio gateway (the built CLI) and our HTTP gateway (the built server), each on
// either wire (MCP_AGENT_WIRE: our lanes, or the SDK alone), a stdio gateway of the bare SDK, and
// the two bare proxies mcp-hub and supergateway. All on loopback, each on a free port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serverMain } from '@mcp-agent/server/testing';
import { freePort } from '@mcp-agent/test-support';
import { sleep } from './served-harness.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** server-everything, the same build every path reaches. */
export const everything = here(
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
const cli = here('../../node_modules/@mcp-agent/cli/dist/cli.js');
const mcpHub = here('../../node_modules/mcp-hub/dist/cli.js');
const supergateway = here('../../node_modules/supergateway/dist/index.js');

/** One way to call `echo`: `call` sends one call and resolves with its result. */
export interface GatewayPath {
  readonly name: string;
  call(message: string): Promise<void>;
  /** The process serving the path (a gateway or proxy; the server itself when direct). */
  readonly pid?: number;
  close(): Promise<void>;
}

/** How our gateways are served: node flags, the wire, JSON answers. */
export interface PathOptions {
  /** Node flags for the served process, such as `--cpu-prof`. */
  readonly nodeFlags?: readonly string[];
  /** The HTTP gateway with `--gateway-json-answers` (calls answered as JSON, not streams). */
  readonly jsonAnswers?: boolean;
  /**
   * `MCP_AGENT_WIRE` of the served process, set either way so that the shell's never decides:
   * `lanes` (default: our call lane, stdio line transport and request lane) or `sdk` (the MCP
   * SDK's transports and protocol alone). A path on `sdk` has `_wire_sdk` after its name.
   */
  readonly wire?: Wire;
  /**
   * Another checkout of this repository whose built CLI and server to serve instead of this
   * workspace's (`pnpm bench gateway --baseline <checkout>`): the same gateway before a change,
   * in the same run. A path from it has `_baseline` after its name.
   */
  readonly baseline?: string;
}

/** The two wires a gateway can run on (`MCP_AGENT_WIRE`). */
export type Wire = 'lanes' | 'sdk';

const wireSuffix = (options: PathOptions) =>
  (options.wire === 'sdk' ? '_wire_sdk' : '') + (options.baseline === undefined ? '' : '_baseline');

// The CLI and server a path serves: this workspace's, or a baseline checkout's builds.
const cliOf = (options: PathOptions) =>
  options.baseline === undefined ? cli : join(options.baseline, 'apps/cli/dist/cli.js');
const serverMainOf = (options: PathOptions) =>
  options.baseline === undefined
    ? serverMain()
    : join(options.baseline, 'apps/server/dist/main.js');

function checked(result: unknown, path: string): void {
  const answer = result as { isError?: boolean; content?: { text?: string }[] };
  if (answer.isError === true || !JSON.stringify(answer.content ?? '').includes('Echo'))
    throw new Error(`${path}: echo answered ${JSON.stringify(result).slice(0, 300)}`);
}

/** A direct SDK call on a held stdio connection. */
export async function directPath(): Promise<GatewayPath> {
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [everything],
    stderr: 'ignore',
  });
  await client.connect(transport);
  return {
    name: 'direct_stdio',
    call: async (message) =>
      checked(await client.callTool({ name: 'echo', arguments: { message } }), 'direct'),
    ...(transport.pid === null ? {} : { pid: transport.pid }),
    close: () => client.close(),
  };
}

/**
 * The floor in the same run: a stdio gateway of the bare SDK (sdk-gateway.ts), server and client
 * and nothing between them, called as ours is (`call_tool` with a tool id and arguments).
 */
export async function sdkGatewayPath(): Promise<GatewayPath> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [here('./sdk-gateway.js'), everything],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const call = (message: string) =>
    client.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'everything.echo', arguments: { message } },
    });
  return {
    name: 'sdk_stdio_gateway',
    call: async (message) => checked(await call(message), 'SDK gateway'),
    ...(transport.pid === null ? {} : { pid: transport.pid }),
    close: () => client.close(),
  };
}

const env = (options: PathOptions) => ({
  ...(process.env as Record<string, string>),
  MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
  MCP_AGENT_USER: 'bench',
  MCP_AGENT_LOG_LEVEL: 'error',
  MCP_AGENT_WIRE: options.wire ?? 'lanes',
});

/** `mcp-agent serve --stdio` (the built CLI) with server-everything added for the user. */
export async function stdioGatewayPath(options: PathOptions = {}): Promise<GatewayPath> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-bench-gw-'));
  const childEnv = env(options);
  const added = spawnSync(
    process.execPath,
    [
      cliOf(options),
      '--home',
      home,
      'servers',
      'add',
      'everything',
      '--command',
      process.execPath,
    ].concat(['--arg', everything]),
    { env: childEnv, encoding: 'utf8' },
  );
  if (added.status !== 0) throw new Error(`servers add: ${added.stderr}`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...(options.nodeFlags ?? []), cliOf(options), '--home', home, 'serve', '--stdio'],
    env: childEnv,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const call = await describedCall(client, 'stdio gateway');
  return {
    name: `mcp_agent_stdio_gateway${wireSuffix(options)}`,
    call,
    ...(transport.pid === null ? {} : { pid: transport.pid }),
    close: async () => {
      await client.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

// describe_tools describes no `echo` for the call; call_tool then calls it.
async function describedCall(client: Client, path: string) {
  const described = await client.callTool({
    name: 'describe_tools',
    arguments: { tool_ids: ['everything.echo'] },
  });
  if ((described as { isError?: boolean }).isError === true)
    throw new Error(`${path}: describe_tools answered ${JSON.stringify(described).slice(0, 300)}`);
  return async (message: string) =>
    checked(
      await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'everything.echo', arguments: { message } },
      }),
      path,
    );
}

/** Spawns a served process and waits until `url` answers anything over HTTP. */
async function served(args: string[], url: string, childEnv: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, args, {
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args[0]} exited: ${log}`);
    const up = await fetch(url, { method: 'GET' }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`${url} did not come up: ${log}`);
    await sleep(100);
  }
  return {
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

// Stops what was started when the rest of a path's setup fails, so a failed run leaves nothing.
async function orStop<T>(setup: () => Promise<T>, stop: () => Promise<void>): Promise<T> {
  try {
    return await setup();
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

async function httpClient(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
  );
  return client;
}

/** `mcp-agent-server` (the built server), its `/mcp` gateway, server-everything an app server. */
export async function httpGatewayPath(options: PathOptions = {}): Promise<GatewayPath> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-bench-gw-http-'));
  const token = randomBytes(16).toString('hex');
  writeFileSync(join(home, 'tokens.json'), JSON.stringify({ tokens: { [token]: 'bench' } }));
  const stdio = { command: process.execPath, args: [everything] };
  writeFileSync(join(home, 'allow.json'), JSON.stringify({ stdio: [stdio] }));
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers: { everything: stdio } }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await served(
    [
      ...(options.nodeFlags ?? []),
      serverMainOf(options),
      '--port',
      String(port),
      '--home',
      home,
    ].concat([
      '--tokens',
      join(home, 'tokens.json'),
      '--stdio-allowlist',
      join(home, 'allow.json'),
      '--servers',
      join(home, 'servers.json'),
      ...(options.jsonAnswers === true ? ['--gateway-json-answers'] : []),
    ]),
    `${base}/health`,
    env(options),
  );
  const stop = async () => {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  };
  const { client, call } = await orStop(async () => {
    const client = await httpClient(`${base}/mcp`, { authorization: `Bearer ${token}` });
    return { client, call: await describedCall(client, 'HTTP gateway') };
  }, stop);
  return {
    name: `${options.jsonAnswers === true ? 'mcp_agent_http_gateway_json' : 'mcp_agent_http_gateway'}${wireSuffix(options)}`,
    call,
    pid: server.child.pid as number,
    close: async () => {
      await client.close();
      await stop();
    },
  };
}

/** mcp-hub: its unified `/mcp` endpoint (SSE), server-everything from its config. */
export async function mcpHubPath(): Promise<GatewayPath> {
  const home = mkdtempSync(join(tmpdir(), 'mcp-bench-hub-'));
  const config = join(home, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [everything] } },
    }),
  );
  // A fresh marketplace cache, so the hub never fetches its catalog from the internet.
  mkdirSync(join(home, '.mcp-hub', 'cache'), { recursive: true });
  writeFileSync(
    join(home, '.mcp-hub', 'cache', 'registry.json'),
    JSON.stringify({
      registry: { version: 'bench', generatedAt: 0, totalServers: 1, servers: [{ id: 'none' }] },
      lastFetchedAt: Date.now(),
      serverDocumentation: {},
    }),
  );
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await served(
    [mcpHub, '--port', String(port), '--config', config],
    `${base}/api/health`,
    { ...process.env, HOME: home, XDG_STATE_HOME: home, XDG_CONFIG_HOME: home },
  );
  const stop = async () => {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  };
  const { client, tool } = await orStop(async () => {
    // Its HTTP server answers before the hub (and its /mcp endpoint) is ready.
    for (let tries = 0; ; tries += 1) {
      const health = (await (await fetch(`${base}/api/health`)).json()) as { state?: string };
      if (health.state === 'ready') break;
      if (tries > 300) throw new Error(`mcp-hub stayed ${health.state}`);
      await sleep(100);
    }
    // mcp-hub 4 serves its endpoint over the SSE transport (GET /mcp, POST /messages).
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${base}/mcp`)));
    // The hub connects its servers in the background: wait until `echo` is listed.
    let name: string | undefined;
    for (let tries = 0; name === undefined && tries < 100; tries += 1) {
      const { tools } = await client.listTools();
      name = tools.find((tool) => tool.name.endsWith('echo'))?.name;
      if (name === undefined) await sleep(200);
    }
    if (name === undefined) throw new Error('mcp-hub never listed echo');
    return { client, tool: name };
  }, stop);
  return {
    name: 'mcp_hub',
    call: async (message) =>
      checked(await client.callTool({ name: tool, arguments: { message } }), 'mcp-hub'),
    pid: server.child.pid as number,
    close: async () => {
      await client.close();
      await stop();
    },
  };
}

/** supergateway: stdio → streamable HTTP, stateful (one server process held). */
export async function supergatewayPath(): Promise<GatewayPath> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await served(
    [supergateway, '--stdio', `${process.execPath} ${everything}`].concat([
      '--outputTransport',
      'streamableHttp',
      '--stateful',
      '--port',
      String(port),
      '--logLevel',
      'none',
    ]),
    `${base}/mcp`,
    process.env,
  );
  const client = await httpClient(`${base}/mcp`);
  return {
    name: 'supergateway',
    call: async (message) =>
      checked(await client.callTool({ name: 'echo', arguments: { message } }), 'supergateway'),
    pid: server.child.pid as number,
    close: async () => {
      await client.close();
      await server.stop();
    },
  };
}

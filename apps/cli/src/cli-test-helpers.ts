// What the CLI's end-to-end tests share: the built binary run as a user runs it, in a home of
// its own, and the loopback fixtures that print `listening <url>`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The built command. */
export const cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** An MCP client of `mcp-agent serve --stdio` in `home`: the meta-tools, as a model reaches them. */
export async function gatewayClient(home: string, env: NodeJS.ProcessEnv): Promise<Client> {
  const client = new Client({ name: 'cli-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath, '--home', home, 'serve', '--stdio'],
      env: env as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  return client;
}

/** Paths of the real MCP servers the CLI tests run. */
export const npmServers = {
  memory: fileURLToPath(
    new URL('../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
  ),
  everything: fileURLToPath(
    new URL(
      '../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
      import.meta.url,
    ),
  ),
};

/** What one run printed and how it ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// Every home made in a test file, removed after its tests (each file loads this module afresh).
const homes: string[] = [];
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/**
 * A fresh home and environment for one user, and a way to run the command in them; the home is
 * removed once the file's tests are done.
 */
export function cliHome(prefix: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const home = mkdtempSync(join(tmpdir(), prefix));
  homes.push(home);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
    MCP_AGENT_USER: 'cli-user',
    ...extraEnv,
  };
  const run = (
    args: string[],
    options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
  ): CliRun => {
    const result = spawnSync(process.execPath, [cliPath, '--home', home, ...args], {
      env: { ...env, ...options.env },
      encoding: 'utf8',
      timeout: 80_000,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.input === undefined ? {} : { input: options.input }),
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  return { home, env, run };
}

/** `servers add <id> --command <this Node> --arg …` in a home of `cliHome`; fails the test if refused. */
export function addNodeServer(
  run: ReturnType<typeof cliHome>['run'],
  id: string,
  args: readonly string[],
): void {
  const added = run([
    'servers',
    'add',
    id,
    '--command',
    process.execPath,
    ...args.flatMap((arg) => ['--arg', arg]),
  ]);
  expect(added.code, added.stderr).toBe(0);
}

/** Starts a fixture that prints `listening <url>`; resolves with the process and the URL. */
export async function startListening(
  script: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no "listening" from ${script}: ${seen}`)),
      20_000,
    );
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (?:on )?(\S+)/i.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${seen}`)));
  });
  return { child, url };
}

/** server-everything over streamable HTTP on a free loopback port; resolves with its /mcp URL. */
export async function startEverything(): Promise<{ child: ChildProcess; url: string }> {
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [npmServers.everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server-everything: ${seen}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited ${code}: ${seen}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

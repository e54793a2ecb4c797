import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { serverFixtures } from '@mcp-agent/test-support';

/** Paths of the real servers from npm and of our own misbehaving fixtures. */
export const servers = {
  everything: fileURLToPath(
    new URL(
      '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
      import.meta.url,
    ),
  ),
  filesystem: fileURLToPath(
    new URL(
      '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
      import.meta.url,
    ),
  ),
  memory: fileURLToPath(
    new URL(
      '../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js',
      import.meta.url,
    ),
  ),
  misbehaving: serverFixtures.misbehaving,
  tiny: serverFixtures.tiny,
  crashing: serverFixtures.crashing,
  oauth: serverFixtures.oauth,
};

/** A stdio server definition running one of our fixtures in `mode`. */
export function misbehaving(id: string, mode: string, extra: string[] = []) {
  return {
    id,
    transport: 'stdio' as const,
    command: process.execPath,
    args: [servers.misbehaving, mode, ...extra],
  };
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** Starts server-everything over streamable HTTP on `port`; resolves once it listens. */
export async function startEverythingHttp(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [servers.everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start')), 15_000);
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`server-everything exited with ${code}: ${seen}`)),
    );
  });
  return child;
}

/** Stops a child and waits for it. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * True when a process with `pid` is running. A zombie (killed, not yet reaped: an orphan waits
 * for PID 1, which in some containers reaps late) counts as dead.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Runs the SDK-transport fixture; `forgetSessions` drops every session, as a restart does. */
export async function startSdkHttpServer(): Promise<{
  child: ChildProcess;
  url: string;
  forgetSessions: () => Promise<void>;
  notFoundCount: () => number;
}> {
  const script = serverFixtures.sdkHttp;
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fixture never said "${text}": ${output}`)),
        10_000,
      );
      const check = () => {
        if (output.includes(text)) {
          clearTimeout(timer);
          child.stdout?.off('data', check);
          resolve();
        }
      };
      child.stdout?.on('data', check);
      check();
    });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await waitFor('port ');
  const port = /port (\d+)/.exec(output)?.[1];
  return {
    child,
    url: `http://127.0.0.1:${port}/mcp`,
    forgetSessions: async () => {
      child.stdin?.write('forget\n');
      await waitFor('forgotten');
    },
    notFoundCount: () => output.split('\n').filter((line) => line === '404').length,
  };
}

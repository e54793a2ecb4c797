// Several built server processes (the app's dist/main.js) on one
// PostgreSQL schema: what the scale-out tests and `pnpm bench scale` run. The schema is made and
// migrated once (`--migrate-only`); each process starts with `--skip-migrations`, as the README's
// deployment recipe says.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@mcp-agent/registry';
import type { FixturePaths } from './fixture-paths.js';

/** One server process of a cluster. */
export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Its log so far (pino JSON lines on standard error). */
  log(): string;
  /** Resolves with the exit code (or the signal's name) once it exited. */
  readonly exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** `postgres://…`; each cluster gets a schema of its own in this database. */
  readonly databaseUrl: string;
  /** Users by bearer token. */
  readonly tokens: Readonly<Record<string, string>>;
  /** The scripted MCP server's script (tools and results) tenants may register over stdio. */
  readonly script: object;
  /** Where the scripted server is (the workspace's `serverFixtures` has it). */
  readonly fixtures: Pick<FixturePaths, 'scripted'>;
  /** Flags every process gets (limits, leases). */
  readonly flags?: readonly string[];
  /** Environment every process gets, e.g. the scripted model's ANTHROPIC_BASE_URL. */
  readonly env?: Readonly<Record<string, string>>;
  /** The main.js to run; default the one next to this file's package (dist/ or build/). */
  readonly main?: string;
}

/** Processes on one schema, and how to start more and stop them all. */
export interface Cluster {
  readonly schema: string;
  readonly home: string;
  /** The scripted server's command, as tenants register it. */
  readonly scriptedServer: (id: string) => object;
  readonly processes: ServerProcess[];
  start(name: string, flags?: readonly string[]): Promise<ServerProcess>;
  /** Stops every process (SIGKILL after 5 s), drops the schema, removes the home folder. */
  close(): Promise<void>;
}

/** The dist/main.js of this app (the same path from src/testing/ and dist/testing/). */
export function serverMain(): string {
  const path = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
  if (existsSync(path)) return path;
  throw new Error('apps/server is not built: run pnpm exec tsc --build first');
}

/** Makes a schema, migrates it once, and returns a cluster with no process yet. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const main = options.main ?? serverMain();
  const schema = `scale_${randomBytes(6).toString('hex')}`;
  const home = mkdtempSync(join(tmpdir(), 'mcp-scale-'));
  const scriptFile = join(home, 'tools.json');
  writeFileSync(scriptFile, JSON.stringify(options.script));
  writeFileSync(join(home, 'tokens.json'), JSON.stringify({ tokens: options.tokens }));
  writeFileSync(
    join(home, 'allow.json'),
    JSON.stringify({
      stdio: [{ command: process.execPath, args: [options.fixtures.scripted, scriptFile] }],
    }),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    MCP_AGENT_DATABASE_URL: options.databaseUrl,
    MCP_AGENT_DATABASE_SCHEMA: schema,
    // Every process of a deployment shares the vault's key.
    MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
    MCP_AGENT_LOG_LEVEL: process.env.MCP_AGENT_LOG_LEVEL ?? 'info',
  };
  const migrated = spawnSync(process.execPath, [main, '--migrate-only'], { env, encoding: 'utf8' });
  if (migrated.status !== 0) throw new Error(`migration failed: ${migrated.stderr}`);
  const processes: ServerProcess[] = [];
  return {
    schema,
    home,
    scriptedServer: (id) => ({
      id,
      transport: 'stdio',
      command: process.execPath,
      args: [options.fixtures.scripted, scriptFile],
    }),
    processes,
    async start(name, flags = []) {
      const started = await spawnServer(main, name, env, [
        '--port',
        '0',
        '--home',
        home,
        '--tokens',
        join(home, 'tokens.json'),
        '--stdio-allowlist',
        join(home, 'allow.json'),
        '--skip-migrations',
        ...(options.flags ?? []),
        ...flags,
      ]);
      processes.push(started);
      return started;
    },
    async close() {
      await Promise.all(
        processes.map(async (server) => {
          server.kill('SIGTERM');
          const timer = setTimeout(() => server.kill('SIGKILL'), 5_000);
          await server.exited;
          clearTimeout(timer);
        }),
      );
      const database = await openDatabase({ url: options.databaseUrl, migrate: false });
      await database.db.schema
        .dropSchema(schema)
        .ifExists()
        .cascade()
        .execute()
        .finally(() => database.close());
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function spawnServer(
  main: string,
  name: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [main, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      // Bounded: only the newest 1 MB of the log is kept.
      if (log.length > 1_000_000) log = log.slice(-500_000);
      const match = /"url":"([^"]+)"/.exec(log);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`server ${name} exited ${code}: ${log}`)));
  });
  return {
    name,
    url,
    pid: child.pid as number,
    log: () => log,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

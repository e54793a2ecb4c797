// The load of `pnpm bench soak`, as an operator's users make it: tenants whose servers are added
// and removed through the HTTP API and through the CLI beside the server (same SQLite home),
// gateway sessions that search, call, run code, and are closed or abandoned, and tasks. A
// tenant is touched by one actor at a time, so a removal never races that tenant's own calls:
// every error counted is the server's.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptedAnthropicServer } from '@mcp-agent/agent/testing';
import { issueTrackerScript, serverFixtures, GatewaySession } from '@mcp-agent/test-support';

const cli = fileURLToPath(
  new URL('../../node_modules/@mcp-agent/cli/dist/mcp-agent.js', import.meta.url),
);

/** One tenant of the load. */
interface Tenant {
  readonly user: string;
  readonly token: string;
  /** Searches only, never calls (LOAD-10's tenant). */
  readonly searcher: boolean;
  /** Its server's id while it has one; each generation has its own script file. */
  server: string | undefined;
  generation: number;
  busy: boolean;
}

/** What the churn did, and what went wrong. */
export interface ChurnCounts {
  sessions: number;
  abandoned: number;
  requests: number;
  searches: number;
  calls: number;
  runCode: number;
  tasks: number;
  added: { api: number; cli: number };
  removed: { api: number; cli: number };
  errors: number;
  /** The first few errors, as they were seen. */
  readonly firstErrors: string[];
}

/** The churn: `tick()` starts one tenant's round; `settle()` waits for the rounds under way. */
export interface Churn {
  readonly counts: ChurnCounts;
  /** Tenants that have a server now: what the live connections may be at most. */
  liveTenants(): number;
  tick(): void;
  settle(): Promise<void>;
}

/** Makes the churn over the server at `url` (the API and the gateway on one port). */
export function createChurn(options: {
  url: string;
  home: string;
  /** Bearer token → user. */
  tokens: Readonly<Record<string, string>>;
  model: ScriptedAnthropicServer;
  /** The environment the CLI runs with (the secret key, the home). */
  cliEnv: NodeJS.ProcessEnv;
  random?: () => number;
}): Churn {
  const random = options.random ?? Math.random;
  const tenants: Tenant[] = Object.entries(options.tokens).map(([token, user], i) => ({
    user,
    token,
    searcher: i % 4 === 0,
    server: undefined,
    generation: 0,
    busy: false,
  }));
  const counts: ChurnCounts = {
    sessions: 0,
    abandoned: 0,
    requests: 0,
    searches: 0,
    calls: 0,
    runCode: 0,
    tasks: 0,
    added: { api: 0, cli: 0 },
    removed: { api: 0, cli: 0 },
    errors: 0,
    firstErrors: [],
  };
  const running = new Set<Promise<void>>();
  let ticks = 0;
  const fail = (what: string, error: unknown) => {
    counts.errors += 1;
    if (counts.firstErrors.length < 10)
      counts.firstErrors.push(
        `${what}: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
      );
  };
  const api = async (tenant: Tenant, method: string, path: string, body?: unknown) => {
    counts.requests += 1;
    const response = await fetch(`${options.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (response.status >= 400)
      throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text;
  };
  const runCli = (tenant: Tenant, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [cli, '--home', options.home, '--user', tenant.user, 'servers', ...args],
        { env: options.cliEnv, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0
          ? resolve()
          : reject(
              new Error(`mcp-agent servers ${args[0]} exited ${code}: ${stderr.slice(0, 300)}`),
            ),
      );
    });

  // Adds the tenant's server, through the CLI every other time.
  const add = async (tenant: Tenant) => {
    tenant.generation += 1;
    const id = `issues${tenant.generation}`;
    const script = join(options.home, `script-${tenant.user}-${tenant.generation}.json`);
    writeFileSync(script, JSON.stringify(issueTrackerScript));
    if (tenant.generation % 2 === 0) {
      await runCli(tenant, [
        'add',
        id,
        '--command',
        process.execPath,
        '--arg',
        serverFixtures.scripted,
        '--arg',
        script,
      ]);
      counts.added.cli += 1;
    } else {
      await api(tenant, 'POST', '/v1/servers', {
        id,
        transport: 'stdio',
        command: process.execPath,
        args: [serverFixtures.scripted, script],
      });
      counts.added.api += 1;
    }
    tenant.server = id;
  };

  const remove = async (tenant: Tenant) => {
    const id = tenant.server as string;
    if (random() < 0.5) {
      await runCli(tenant, ['remove', id]);
      counts.removed.cli += 1;
    } else {
      await api(tenant, 'DELETE', `/v1/servers/${id}`);
      counts.removed.api += 1;
    }
    tenant.server = undefined;
  };

  // One gateway session: search; then (unless a searcher) describe and call, or run code;
  // then close it, or walk away from it.
  const session = async (tenant: Tenant) => {
    const tool = `${tenant.server}.list_issues`;
    const gateway = new GatewaySession(options.url, tenant.token);
    await gateway.open();
    counts.sessions += 1;
    counts.requests += 2;
    const ok = async (name: string, args: object) => {
      counts.requests += 1;
      const outcome = await gateway.call(name, args);
      if (!outcome.ok) throw new Error(`${name}: ${outcome.error}`);
    };
    await ok('search_tools', { query: 'list the open issues' });
    counts.searches += 1;
    if (!tenant.searcher) {
      await ok('describe_tools', { tool_ids: [tool] });
      if (random() < 0.7) {
        await ok('call_tool', { tool_id: tool, arguments: { repo: 'a/b' } });
        counts.calls += 1;
      } else {
        await ok('run_code', {
          code: `const r = await tools.${tenant.server}.list_issues({ repo: "a/b" }); return r;`,
        });
        counts.runCode += 1;
      }
    }
    if (random() < 0.2) counts.abandoned += 1;
    else {
      counts.requests += 1;
      await gateway.close();
    }
  };

  // A task: one model turn that answers at once.
  const task = async (tenant: Tenant) => {
    options.model.push({ content: [{ type: 'text', text: 'Nothing to do.' }] });
    const { id } = JSON.parse(await api(tenant, 'POST', '/v1/tasks', { task: 'Say nothing.' })) as {
      id: string;
    };
    counts.tasks += 1;
    for (let i = 0; i < 600; i += 1) {
      const { status } = JSON.parse(await api(tenant, 'GET', `/v1/tasks/${id}`)) as {
        status: string;
      };
      if (status !== 'running') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`task ${id} still running after 60 s`);
  };

  const round = async (tenant: Tenant, n: number) => {
    let step = 'add';
    try {
      if (tenant.server === undefined) await add(tenant);
      // About one round in eight removes the server instead (a tenant leaving, or replacing it).
      if (n % 8 === 7) {
        step = 'remove';
        await remove(tenant);
      } else if (n % 15 === 4) {
        step = 'task';
        await task(tenant);
      } else {
        step = 'session';
        await session(tenant);
      }
    } catch (error) {
      fail(step, error);
    } finally {
      tenant.busy = false;
    }
  };

  return {
    counts,
    liveTenants: () => tenants.filter((t) => t.server !== undefined).length,
    tick() {
      const idle = tenants.filter((t) => !t.busy);
      const tenant = idle[Math.floor(random() * idle.length)];
      if (tenant === undefined) return;
      tenant.busy = true;
      const promise = round(tenant, ticks++).finally(() => running.delete(promise));
      running.add(promise);
    },
    async settle() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

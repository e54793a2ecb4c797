// `pnpm bench load-05`: kill -9 of one of three server processes every few seconds while
// tenants call an idempotent tool (with the client's retry) and start tasks; a replacement is
// started after each kill, as an orchestrator would. Then: did the calls succeed, did the
// killed processes' tasks end failed with the reason, and is anything in the database
// half-written?
import { randomInt } from 'node:crypto';
import { openDatabase } from '@mcp-agent/registry';
import { startScriptedAnthropicServer } from '@mcp-agent/agent/testing';
import { round3 } from '@mcp-agent/core/testing';
import { GatewaySession, type CallOutcome } from '@mcp-agent/test-support';
import { echoCall, sleep } from './scale.js';
import { benchDatabaseUrl, ECHO, machine, setUpScale, summarise } from './scale-setup.js';
import type { ServerProcess } from '@mcp-agent/server/testing';

interface StartedTask {
  readonly id: string;
  readonly token: string;
  readonly backend: string;
}

/** LOAD-05 with `killEveryMs` between kills over `durationMs` of load. */
export async function runLoad05(
  options: { tenants?: number; durationMs?: number; killEveryMs?: number; leaseMs?: number } = {},
) {
  const tenants = options.tenants ?? 24;
  const durationMs = options.durationMs ?? 60_000;
  const killEveryMs = options.killEveryMs ?? 15_000;
  const leaseMs = options.leaseMs ?? 5_000;
  const model = await startScriptedAnthropicServer();
  // Every task waits 2 s on the model, then answers: some are always in flight at a kill.
  for (let i = 0; i < 2_000; i += 1)
    model.push({ content: [{ type: 'text', text: 'Done.' }], delayMs: 2_000 });
  const setup = await setUpScale({
    tenants,
    processes: 3,
    flags: ['--task-lease-ms', String(leaseMs), '--drain-ms', '1000'],
    env: { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: model.url },
  });
  const outcomes: CallOutcome[] = [];
  const tasks: StartedTask[] = [];
  const kills: { url: string; atMs: number }[] = [];
  let refusedTasks = 0;
  let running = true;
  const started = performance.now();
  try {
    const calls = setup.tokens.map(async (token) => {
      const session = new GatewaySession(setup.balancer.url, token, {
        describe: [ECHO],
        retries: 3,
      });
      for (let n = 0; running; n += 1) {
        outcomes.push(await session.call('call_tool', echoCall(n)));
        await sleep(20);
      }
      await session.close();
    });
    const starter = (async () => {
      while (running) {
        const token = setup.tokens[randomInt(setup.tokens.length)] as string;
        const response = await fetch(`${setup.balancer.url}/v1/tasks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ task: 'Say done.' }),
        }).catch(() => undefined);
        if (response?.status === 202) {
          const { id } = (await response.json()) as { id: string };
          tasks.push({ id, token, backend: response.headers.get('x-balancer-backend') ?? '' });
        } else {
          refusedTasks += 1;
          await response?.body?.cancel();
        }
        await sleep(400);
      }
    })();
    const chaos = (async () => {
      while (performance.now() - started < durationMs - killEveryMs / 2) {
        await sleep(killEveryMs);
        const victim = setup.live[randomInt(setup.live.length)] as ServerProcess;
        victim.kill('SIGKILL');
        kills.push({ url: victim.url, atMs: Math.round(performance.now() - started) });
        setup.live.splice(setup.live.indexOf(victim), 1);
        await setup.addProcess(`replacement-${kills.length}`);
      }
    })();
    await sleep(durationMs);
    running = false;
    await Promise.all(calls);
    const seconds = (performance.now() - started) / 1_000;
    await Promise.all([starter, chaos]);

    // Every task ends: on a live process it completes; a killed process's is failed by a sweep.
    const killed = new Set(kills.map((kill) => kill.url));
    const ends = await Promise.all(tasks.map((task) => finalState(setup.balancer.url, task)));
    const onKilled = ends.filter((_, i) => killed.has((tasks[i] as StartedTask).backend));
    const onLive = ends.filter((_, i) => !killed.has((tasks[i] as StartedTask).backend));
    const integrity = await checkDatabase(setup.cluster.schema);
    const calls_ = summarise(outcomes, seconds);
    const successRate = round3(1 - calls_.failureRate);
    return {
      benchmark: 'load-05',
      setup: `3 processes on one PostgreSQL behind the sticky balancer; ${tenants} tenants calling ${ECHO} back to back (client retry: up to 3 more attempts, a new session after a failure); a task started every 400 ms (model answers after 2 s); kill -9 of a random process every ${killEveryMs / 1_000} s over ${durationMs / 1_000} s, a replacement started after each; task lease ${leaseMs} ms`,
      kills: kills.length,
      calls: {
        ...calls_,
        successRate,
        retried: outcomes.filter((o) => o.ok && o.attempts > 1).length,
        errors: [...new Set(outcomes.filter((o) => !o.ok).map((o) => o.error))].slice(0, 5),
      },
      goal: 'idempotent calls succeed >= 99.9% with the client retry',
      met: successRate >= 0.999,
      tasks: {
        started: tasks.length,
        refusedAtStart: refusedTasks,
        onKilledProcesses: tally(onKilled),
        onLiveProcesses: tally(onLive),
        killedTasksFailedWithReason: onKilled.every(
          (end) => end.status === 'completed' || end.reason === 'process_lost',
        ),
      },
      database: integrity,
      machine: machine(),
    };
  } finally {
    running = false;
    await setup.close();
    await model.close();
  }
}

async function finalState(
  base: string,
  task: StartedTask,
): Promise<{ status: string; reason?: string }> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const response = await fetch(`${base}/v1/tasks/${task.id}`, {
      headers: { authorization: `Bearer ${task.token}` },
    }).catch(() => undefined);
    if (response?.status === 200) {
      const body = (await response.json()) as {
        status: string;
        result: { error?: { details?: { reason?: string } } } | null;
      };
      if (body.status !== 'running') {
        const reason = body.result?.error?.details?.reason;
        return { status: body.status, ...(reason === undefined ? {} : { reason }) };
      }
    } else await response?.body?.cancel();
    if (performance.now() > deadline) return { status: 'still running after 60 s' };
    await sleep(250);
  }
}

function tally(ends: readonly { status: string; reason?: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const end of ends) {
    const key = end.reason === undefined ? end.status : `${end.status}:${end.reason}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

// Read around the repositories: no task left running, every finished one with its result, and
// each task's stored events exactly 0..eventCount-1.
async function checkDatabase(schema: string) {
  const database = await openDatabase({ url: benchDatabaseUrl(), schema, migrate: false });
  try {
    const tasks = await database.db
      .selectFrom('tasks')
      .select(['id', 'status', 'result', 'finished_at', 'event_count'])
      .execute();
    const events = await database.db
      .selectFrom('task_events')
      .select(['task_id', 'seq'])
      .orderBy('task_id')
      .orderBy('seq')
      .execute();
    const seqs = new Map<string, number[]>();
    for (const event of events)
      seqs.set(event.task_id, [...(seqs.get(event.task_id) ?? []), event.seq]);
    const badEvents = tasks.filter((task) => {
      const stored = seqs.get(task.id) ?? [];
      return stored.length !== task.event_count || stored.some((seq, i) => seq !== i);
    });
    return {
      tasks: tasks.length,
      running: tasks.filter((task) => task.status === 'running').length,
      finishedWithoutResult: tasks.filter(
        (task) => task.status !== 'running' && (task.result === null || task.finished_at === null),
      ).length,
      tasksWithEventsNotMatchingTheirCount: badEvents.length,
      halfWritten:
        badEvents.length + tasks.filter((t) => t.status !== 'running' && t.result === null).length,
    };
  } finally {
    await database.close();
  }
}

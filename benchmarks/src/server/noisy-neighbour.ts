// `pnpm bench load-06`: other tenants' p99 while one tenant runs sandbox bombs (SBX-03-style
// busy loops that only the deadline stops) as fast as the service lets it, against the same
// load without the bomb.
import { latencyStats, round3 } from '@mcp-agent/core/testing';
import { GatewaySession, type CallOutcome } from '@mcp-agent/test-support';
import { echoCall, sleep } from './scale.js';
import { ECHO, machine, setUpScale, summarise } from './scale-setup.js';

// A busy loop that only the host's deadline stops, and a slower one through the promise queue.
const BOMBS = ['while (true) {}', 'for (;;) { await Promise.resolve(); }'];

/**
 * LOAD-06: `others` tenants calling a cheap tool for `phaseMs` without, then with, one tenant
 * running bombs from `bombSessions` sessions at once (its session quota allows 16).
 */
export async function runLoad06(
  options: { others?: number; phaseMs?: number; bombSessions?: number; processes?: number } = {},
) {
  const others = options.others ?? 8;
  const phaseMs = options.phaseMs ?? 30_000;
  const bombSessions = options.bombSessions ?? 4;
  const setup = await setUpScale({ tenants: others + 1, processes: options.processes ?? 1 });
  try {
    const [bomber, ...tokens] = setup.tokens as [string, ...string[]];
    const sessions = tokens.map(
      (token) => new GatewaySession(setup.balancer.url, token, { describe: [ECHO] }),
    );
    await Promise.all(sessions.map((session) => session.open()));
    const load = async (): Promise<CallOutcome[]> => {
      const outcomes: CallOutcome[] = [];
      const until = performance.now() + phaseMs;
      await Promise.all(
        sessions.map(async (session) => {
          for (let n = 0; performance.now() < until; n += 1) {
            outcomes.push(await session.call('call_tool', echoCall(n)));
            await sleep(10);
          }
        }),
      );
      return outcomes;
    };
    // Warm up, then the two phases.
    await Promise.all(sessions.map((session) => session.call('call_tool', echoCall(0))));
    const quietStart = performance.now();
    const quiet = await load();
    const quietSeconds = (performance.now() - quietStart) / 1_000;
    const quietMachine = machine();

    let bombing = true;
    const bombs: { ok: number; failed: number; errors: Set<string> } = {
      ok: 0,
      failed: 0,
      errors: new Set(),
    };
    const bombers = Array.from({ length: bombSessions }, async (_, i) => {
      const session = new GatewaySession(setup.balancer.url, bomber);
      await session.open();
      while (bombing) {
        const outcome = await session.call('run_code', { code: BOMBS[i % BOMBS.length] });
        if (outcome.ok) bombs.ok += 1;
        else {
          bombs.failed += 1;
          if (outcome.error !== undefined) bombs.errors.add(outcome.error.slice(0, 120));
        }
      }
      await session.close();
    });
    await sleep(1_000);
    const noisyStart = performance.now();
    const noisy = await load();
    const noisySeconds = (performance.now() - noisyStart) / 1_000;
    const noisyMachine = machine();
    bombing = false;
    await Promise.all(bombers);
    await Promise.all(sessions.map((session) => session.close()));

    const p99 = (outcomes: CallOutcome[]) =>
      latencyStats(outcomes.filter((o) => o.ok).map((o) => o.ms)).p99;
    const rise = round3((p99(noisy) - p99(quiet)) / p99(quiet));
    return {
      benchmark: 'load-06',
      setup: `${others} tenants calling ${ECHO} through the gateway (${options.processes ?? 1} process, one PostgreSQL) for ${phaseMs / 1_000} s, then again while one tenant runs sandbox bombs (busy loops stopped only by the 30 s deadline) from ${bombSessions} sessions at once`,
      quiet: { ...summarise(quiet, quietSeconds), machine: quietMachine },
      withBombs: { ...summarise(noisy, noisySeconds), machine: noisyMachine },
      bombRuns: { ...bombs, errors: [...bombs.errors].slice(0, 3) },
      p99Rise: rise,
      goal: "other tenants' p99 rises by <= 20%",
      met: rise <= 0.2,
      crossTenantErrors: noisy.filter((o) => !o.ok).length,
    };
  } finally {
    await setup.close();
  }
}

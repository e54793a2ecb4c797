// Runs the task suite: for each size and mode, one agent stack over the suite's servers (started
// once; at scale with the recorded distractors beside them), and for each task the state
// rebuilt, the task run with the mode's tools, and its outcome checked. Everything but the mode
// is the same in every mode.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, type MCPTaskResult } from '@mcp-agent/core';
import { openAgentStack, type ModelClient, type ToolMode } from '@mcp-agent/agent';
import { ANSWER_RULE } from './answer-line.js';
import { judge, type EvalTask, type TaskKind } from './eval-task.js';
import { evalServers } from './eval-servers.js';
import { readDistractorCatalogs, type RecordedServer } from './distractor-catalogs.js';
import { connectDistractors, type SuiteSize } from './suite-size.js';
import { createWorld, resetWorld } from './eval-world.js';
import { outcomeOf } from './task-outcome.js';
import { describeChange, diffWorld, snapshotWorld } from './world-snapshot.js';
import {
  startScriptedModel,
  type QueryVariant,
  type ScriptedModel,
  type ScriptedModelName,
} from './scripted-models.js';

/** One task run in one mode. */
export interface TaskRun {
  readonly task: string;
  readonly kind: TaskKind;
  readonly mode: ToolMode;
  /** The suite's servers alone (`small`), or with the recorded distractors (`scale`). */
  readonly size: SuiteSize;
  readonly passed: boolean;
  /** Why the checker failed it. */
  readonly reason?: string;
  /** The agent's status: completed, failed, budget_exceeded, … */
  readonly status: string;
  /** The budget limit that ended the task (`maxInputTokens`, …), when one did. */
  readonly stoppedBy?: string;
  /** Commands the model ran (meta-tool or tool calls). */
  readonly steps: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedTokens: number;
  /** From the model's price table; null for a model with no known price. */
  readonly costUsd: number | null;
  readonly wallMs: number;
}

export interface SuiteOptions {
  /** A scripted model, or a client of a real one. */
  readonly model: ScriptedModelName | ModelClient;
  readonly modes: readonly ToolMode[];
  /** The sizes to run, each in every mode; default small only. */
  readonly sizes?: readonly SuiteSize[];
  readonly tasks: readonly EvalTask[];
  /** Each run as it ends (progress for a terminal). */
  readonly onRun?: (run: TaskRun) => void;
  /** A scripted oracle's searches; default `blind`. */
  readonly queries?: QueryVariant;
  /** The most commands a task may run; default 15. */
  readonly maxSteps?: number;
  /** Each task's wall-time limit in milliseconds; default the agent's (`DEFAULT_BUDGET`). */
  readonly timeoutMs?: number;
  /** Each task's input-token limit; default `SUITE_MAX_INPUT_TOKENS`. */
  readonly maxInputTokens?: number;
  /** Each run with what the agent returned (a transcript's source). */
  readonly onResult?: (run: TaskRun, task: EvalTask, result: MCPTaskResult) => void;
  /** Each folder holding state as it is made (a caller interrupted removes them). */
  readonly onTemporary?: (folder: string) => void;
}

/**
 * Each task's input-token cap, the same in every mode and size, so that the step limit binds
 * first in every mode: all tools up front at scale sends about 0.77M tokens of tool
 * declarations in each request, and 16 such requests stay under it (the oracle's largest task
 * there took 2.75M). A run it ends is a cap hit in the report.
 */
export const SUITE_MAX_INPUT_TOKENS = 20_000_000;

export async function runSuite(options: SuiteOptions): Promise<TaskRun[]> {
  const runs: TaskRun[] = [];
  const sizes = options.sizes ?? ['small'];
  // Read before any server starts: missing data fails at once, naming its folder.
  const recorded = sizes.includes('scale') ? readDistractorCatalogs() : [];
  for (const size of sizes)
    for (const mode of options.modes)
      runs.push(...(await runMode(mode, size === 'scale' ? recorded : undefined, options)));
  return runs;
}

// `distractors`: the recorded servers to connect beside the suite's (the scale size), if any.
async function runMode(
  mode: ToolMode,
  distractors: readonly RecordedServer[] | undefined,
  options: SuiteOptions,
): Promise<TaskRun[]> {
  const size: SuiteSize = distractors === undefined ? 'small' : 'scale';
  const world = createWorld();
  options.onTemporary?.(world.root);
  // A fresh copy of the world: each task must start from it (its own setup aside).
  const pristine = snapshotWorld(world);
  const home = mkdtempSync(join(tmpdir(), 'mcp-agent-eval-home-'));
  options.onTemporary?.(home);
  const scripted: ScriptedModel | undefined =
    typeof options.model === 'string'
      ? await startScriptedModel(options.model, options.queries)
      : undefined;
  const model = scripted?.client ?? (options.model as ModelClient);
  const stack = await openAgentStack({
    home,
    env: { PATH: process.env.PATH },
    // Every server stays connected for the whole run, at scale too: none evicted or reaped, and
    // no liveness pings (at scale, hundreds of pings before each task would time each other out
    // and measure the pool, not the modes).
    pool: { maxSize: 2_000, idleMs: 0, pingIntervalMs: 0, pingAfterIdleMs: 24 * 3_600_000 },
    limits: {
      budgetCeilings: {
        maxInputTokens: Math.max(SUITE_MAX_INPUT_TOKENS, options.maxInputTokens ?? 0),
      },
    },
  });
  let host: { close(): Promise<void> } | undefined;
  const runs: TaskRun[] = [];
  try {
    const ctx = createContext({ userId: 'eval' });
    const servers = evalServers(world);
    for (const server of servers) await stack.registry.addServer(ctx, server);
    await stack.pool.waitForReady(
      ctx,
      servers.map((s) => s.id),
      { timeoutMs: 60_000 },
    );
    if (distractors !== undefined)
      host = await connectDistractors(stack, ctx, servers, distractors);
    for (const task of options.tasks) {
      resetWorld(world);
      // What a server keeps between calls is state too: the git server's session folder.
      const cleared = await stack.dispatcher.dispatchTool(ctx, 'git.git_clear_working_dir', {
        confirm: 'Y',
      });
      if (!cleared.ok) throw new Error(`the git server's state: ${cleared.error.message}`);
      task.setup?.(world);
      scripted?.prepare(task, world, mode);
      // The state the task starts from: a fresh copy's, which the reset must have rebuilt whole.
      const fresh = snapshotWorld(world);
      const left = task.setup === undefined ? diffWorld(pristine, fresh) : [];
      if (left.length > 0)
        throw new Error(
          `the reset before ${task.id} left the world unlike a fresh copy: ${left.map(describeChange).join(', ')}`,
        );
      const result = await stack.agent.executeTask(`${task.prompt}${ANSWER_RULE}`, 'eval', {
        mode,
        model,
        budget: {
          maxSteps: options.maxSteps ?? 15,
          ...(options.timeoutMs === undefined ? {} : { maxWallTimeMs: options.timeoutMs }),
          maxInputTokens: options.maxInputTokens ?? SUITE_MAX_INPUT_TOKENS,
        },
      });
      const answer = result.answer ?? '';
      const failure =
        result.status === 'completed'
          ? judge(task, outcomeOf(world, fresh, result))
          : `the task ended ${result.status}: ${result.error?.message ?? ''}`.trim();
      // What the model said shows why, as far as its words do.
      const reason =
        failure === undefined
          ? undefined
          : `${failure}; answer: ${JSON.stringify(answer.slice(0, 200))}`;
      const run: TaskRun = {
        task: task.id,
        kind: task.kind,
        mode,
        size,
        passed: reason === undefined,
        ...(reason === undefined ? {} : { reason }),
        status: result.status,
        ...(result.status === 'budget_exceeded' && typeof result.error?.details.limit === 'string'
          ? { stoppedBy: result.error.details.limit }
          : {}),
        steps: result.steps.length,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        cachedTokens: result.usage.cacheReadTokens,
        costUsd: result.usage.estimatedCostUsd ?? null,
        wallMs: result.durationMs,
      };
      runs.push(run);
      options.onResult?.(run, task, result);
      options.onRun?.(run);
    }
  } finally {
    await stack.close();
    await host?.close();
    await scripted?.close();
    rmSync(world.root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  return runs;
}

// Runs the task suite: for each mode, one agent stack over the suite's servers (started once),
// and for each task the state rebuilt, the task run with the mode's tools, and its outcome
// checked. Everything but the mode is the same in every mode.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, type MCPTaskResult } from '@mcp-agent/core';
import { openAgentStack, type ModelClient, type ToolMode } from '@mcp-agent/agent';
import { ANSWER_RULE } from './answer-line.js';
import { judge, type EvalTask, type TaskKind } from './eval-task.js';
import { evalServers } from './eval-servers.js';
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
  readonly passed: boolean;
  /** Why the checker failed it. */
  readonly reason?: string;
  /** The agent's status: completed, failed, budget_exceeded, … */
  readonly status: string;
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
  readonly tasks: readonly EvalTask[];
  /** Each run as it ends (progress for a terminal). */
  readonly onRun?: (run: TaskRun) => void;
  /** A scripted oracle's searches; default `blind`. */
  readonly queries?: QueryVariant;
  /** The most commands a task may run; default 15. */
  readonly maxSteps?: number;
  /** Each task's wall-time limit in milliseconds; default the agent's (`DEFAULT_BUDGET`). */
  readonly timeoutMs?: number;
  /** Each task's input-token limit; default the agent's. */
  readonly maxInputTokens?: number;
  /** Each run with what the agent returned (a transcript's source). */
  readonly onResult?: (run: TaskRun, task: EvalTask, result: MCPTaskResult) => void;
  /** Each folder holding state as it is made (a caller interrupted removes them). */
  readonly onTemporary?: (folder: string) => void;
}

export async function runSuite(options: SuiteOptions): Promise<TaskRun[]> {
  const runs: TaskRun[] = [];
  for (const mode of options.modes) runs.push(...(await runMode(mode, options)));
  return runs;
}

async function runMode(mode: ToolMode, options: SuiteOptions): Promise<TaskRun[]> {
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
  const stack = await openAgentStack({ home, env: { PATH: process.env.PATH } });
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
          ...(options.maxInputTokens === undefined
            ? {}
            : { maxInputTokens: options.maxInputTokens }),
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
        passed: reason === undefined,
        ...(reason === undefined ? {} : { reason }),
        status: result.status,
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
    await scripted?.close();
    rmSync(world.root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
  return runs;
}

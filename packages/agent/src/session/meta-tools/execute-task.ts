import { z } from 'zod';
import type { JsonValue, MCPTaskResult } from '@mcp-agent/core';
import { taskContextSchema, type TaskContext } from '../../input/task-context.js';
import type { MetaTool } from '../meta-tool.js';
import { answered } from '../observation.js';

const input = z.strictObject({
  /** The task in words, as `Agent.executeTask` takes it; 1 to 20,000 characters. */
  task: z.string().trim().min(1).max(20_000).describe('What should be done, in words.'),
  /** What the client knows of where the task was asked (see {@link TaskContext}). */
  context: taskContextSchema.optional(),
});

/**
 * `execute_task`: the whole agent behind one call, for gateway clients. `execute` runs the task
 * (the gateway passes `DurableTasks.run` where tasks are stored, else `Agent.executeTask`); the
 * observation is the whole `MCPTaskResult`, `ok` only when it completed.
 */
export function executeTaskTool(
  execute: (
    task: string,
    signal: AbortSignal,
    context: TaskContext | undefined,
  ) => Promise<MCPTaskResult>,
): MetaTool<z.infer<typeof input>> {
  return {
    name: 'execute_task',
    description:
      'Hand a whole task to the agent, which searches, describes and calls tools itself and answers in words.',
    input,
    async run({ task, context }, { ctx }) {
      const result = await execute(task, ctx.signal, context);
      return answered(result.status === 'completed', result as unknown as JsonValue);
    },
  };
}

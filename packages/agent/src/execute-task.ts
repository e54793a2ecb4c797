import { failedTaskResult, toMcpAgentError, type MCPTaskResult } from '@mcp-agent/core';
import type { ExecuteTaskOptions } from './agent-options.js';
import { openAgentStack, type AgentStack } from './open-agent.js';

let shared: Promise<AgentStack> | undefined;

/**
 * `executeTask(task, userId, options)` over a stack opened once from the environment (the
 * registry of `MCP_AGENT_DATABASE_URL` or `MCP_AGENT_HOME`, the model of `MCP_AGENT_MODEL` or the
 * Anthropic variables). Never throws: a stack that cannot open is a failed result that says why.
 * Close it with {@link closeSharedStack} at shutdown; an application that needs options of its
 * own uses `openAgentStack` instead. A stack that failed to open is tried again on the next call.
 *
 * @example
 * ```ts
 * // MCP_AGENT_MODEL=anthropic:claude-sonnet-5-5 and ANTHROPIC_API_KEY set; servers added
 * // with `mcp-agent servers add`.
 * const result = await executeTask('List my open pull requests', 'alice', {
 *   budget: { maxToolCalls: 5 },
 *   onEvent: (event) => console.error(event.type),
 * });
 * if (result.status === 'completed') console.log(result.answer);
 * else console.error(`${result.status}: ${result.error?.code} ${result.error?.message}`);
 * await closeSharedStack();
 * ```
 */
export async function executeTask(
  task: string,
  userId: string,
  options: ExecuteTaskOptions = {},
): Promise<MCPTaskResult> {
  let stack: AgentStack;
  try {
    shared ??= openAgentStack();
    stack = await shared;
  } catch (thrown) {
    shared = undefined;
    return failedTaskResult(toMcpAgentError(thrown));
  }
  return stack.agent.executeTask(task, userId, options);
}

/** Closes the stack `executeTask` opened, if it did: its servers, sandbox and database. */
export async function closeSharedStack(): Promise<void> {
  const opening = shared;
  shared = undefined;
  await (await opening?.catch(() => undefined))?.close();
}

import { ErrorCode, McpAgentError, type AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { usage, type Invocation } from '../invocation.js';
import { progressText } from '../progress-line.js';

/** run "<task>": executeTask, streaming each step. */
export async function run(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  task: string,
): Promise<void> {
  const { asJson, out } = cli;
  if (task === '') usage('run needs a task: mcp-agent run "Summarise the open issues"', 'run');
  const result = await stack.agent.executeTask(task, ctx.userId, {
    onEvent: (event) => {
      if (asJson) process.stdout.write(`${JSON.stringify(event)}\n`);
      else if (event.type === 'tool-call')
        process.stderr.write(`→ ${event.command} ${cut(JSON.stringify(event.arguments), 120)}\n`);
      else if (event.type === 'progress') process.stderr.write(`  … ${progressText(event)}\n`);
      else if (event.type === 'observation' && !event.ok)
        process.stderr.write(`  ✗ ${cut(JSON.stringify(event.observation), 160)}\n`);
    },
  });
  if (result.status !== 'completed')
    throw new McpAgentError(
      result.error?.code ?? ErrorCode.Internal,
      result.error?.message ?? result.status,
    );
  out(result.answer ?? '', result);
}

// One line per step; a cut says where the whole is.
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (cut; --json shows every event whole)`;
}

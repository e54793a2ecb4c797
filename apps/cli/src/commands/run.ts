import { McpAgentError, type AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { usage, type Invocation } from '../invocation.js';

/** run "<task>": executeTask, streaming each step. */
export async function run(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  task: string,
): Promise<void> {
  const { asJson, out } = cli;
  if (task === '') usage('run needs a task: mcp-agent run "Summarise the open issues"');
  const result = await stack.agent.executeTask(task, ctx.userId, {
    onEvent: (event) => {
      if (asJson) process.stdout.write(`${JSON.stringify(event)}\n`);
      else if (event.type === 'tool-call')
        process.stderr.write(
          `→ ${event.command} ${JSON.stringify(event.arguments).slice(0, 120)}\n`,
        );
      else if (event.type === 'observation' && !event.ok)
        process.stderr.write(`  ✗ ${JSON.stringify(event.observation).slice(0, 160)}\n`);
    },
  });
  if (result.status !== 'completed')
    throw new McpAgentError(
      result.error?.code ?? 'INTERNAL',
      result.error?.message ?? result.status,
    );
  out(result.answer ?? '', result);
}

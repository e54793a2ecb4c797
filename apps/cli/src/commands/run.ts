import { ErrorCode, McpAgentError, type AgentContext, clip } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { usage, type Invocation } from '../invocation.js';
import { progressText } from '../progress-line.js';

// One line per step; a cut says where the whole is.
const CUT = '… (cut; --json shows every event whole)';

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
        process.stderr.write(
          `→ ${event.command} ${clip(JSON.stringify(event.arguments), 120, CUT)}\n`,
        );
      else if (event.type === 'progress') process.stderr.write(`  … ${progressText(event)}\n`);
      else if (event.type === 'observation' && !event.ok)
        process.stderr.write(`  ✗ ${clip(JSON.stringify(event.observation), 160, CUT)}\n`);
    },
  });
  if (result.status !== 'completed')
    throw new McpAgentError(
      result.error?.code ?? ErrorCode.Internal,
      result.error?.message ?? result.status,
      { details: result.error?.details ?? {} },
    );
  out(result.answer ?? '', result);
}

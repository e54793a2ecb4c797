// One task's transcript as Markdown: the request, every command with its arguments and what it
// returned, the reply, and the verdict, so that a failure can be read without a re-run.
import type { MCPTaskResult } from '@mcp-agent/core';
import type { TaskRun } from './run-suite.js';

/** The most characters of one command's observation a transcript keeps. */
const OBSERVATION_CHARS = 4_000;

/** The transcript of one run. */
export function transcript(prompt: string, run: TaskRun, result: MCPTaskResult): string {
  const block = (value: unknown, limit = Number.POSITIVE_INFINITY): string => {
    const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    const cut =
      text.length > limit
        ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)`
        : text;
    return `\`\`\`\n${cut.replace(/```/g, '`\u200b``')}\n\`\`\``;
  };
  const lines = [
    `# ${run.task} (${run.mode}): ${run.passed ? 'passed' : 'FAILED'}`,
    '',
    run.passed ? '' : `**Why:** ${run.reason ?? ''}\n`,
    `Status ${run.status}; ${run.steps} commands; ${run.inputTokens} input, ${run.cachedTokens} cached, ${run.outputTokens} output tokens; ${run.wallMs} ms.`,
    '',
    '## Request',
    '',
    block(prompt),
    '',
  ];
  for (const step of result.steps) {
    lines.push(
      `## ${step.index + 1}. ${step.command}${step.ok ? '' : ' (failed)'}`,
      '',
      block(step.arguments),
      '',
      block(step.observation, OBSERVATION_CHARS),
      '',
    );
  }
  lines.push('## Reply', '', block(result.answer ?? result.error?.message ?? ''), '');
  return `${lines.join('\n')}\n`;
}

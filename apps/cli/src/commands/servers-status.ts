import type { AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import type { ServerReport } from '@mcp-agent/registry';
import { table, wholeNumber, type Invocation } from '../invocation.js';

/**
 * servers status [<id>…] [--timeout s]: connects each enabled server and waits for each on its
 * own; every server reports its final state and the reason, with the command that fixes it.
 */
export async function serversStatus(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
): Promise<void> {
  const { values, asJson, out, rest } = cli;
  const timeoutMs = wholeNumber(values, 'timeout', { min: 1, max: 600, fallback: 30 }) * 1000;
  const progress = setInterval(() => {
    if (process.stderr.isTTY && !asJson) {
      const states = stack.pool.status(ctx);
      const ready = states.filter((s) => s.status === 'ready').length;
      process.stderr.write(`\rconnecting: ${ready}/${states.length} ready`);
    }
  }, 200);
  let reports: ServerReport[];
  try {
    reports = await stack.pool.report(ctx, {
      timeoutMs,
      ...(rest.length === 0 ? {} : { serverIds: rest }),
    });
  } finally {
    clearInterval(progress);
    if (process.stderr.isTTY && !asJson) process.stderr.write('\r\x1b[K');
  }
  const unknown = rest.filter((id) => !reports.some((r) => r.serverId === id));
  const rows = reports.map((report) => ({ ...report, reason: withFix(report) }));
  out(
    rows.length === 0
      ? 'no servers; add one with "mcp-agent servers add"'
      : table([
          ['SERVER', 'STATUS', 'TOOLS', 'REASON'],
          ...rows.map((r) => [r.serverId, r.status, String(r.toolCount ?? '-'), r.reason ?? '']),
        ]),
    rows,
  );
  if (unknown.length > 0) {
    process.stderr.write(`mcp-agent: no server ${unknown.map((id) => `"${id}"`).join(', ')}\n`);
    process.exitCode = 3;
  } else if (reports.some((r) => r.status !== 'ready' && r.status !== 'disabled'))
    process.exitCode = 4;
}

// The registry's reason, and the command that acts on it.
function withFix(report: ServerReport): string | null {
  switch (report.status) {
    case 'ready':
      return null;
    case 'disabled':
      return `disabled; "mcp-agent servers enable ${report.serverId}" turns it on`;
    case 'needs_auth':
      return `${report.reason ?? 'needs authorisation'}; run "mcp-agent auth login ${report.serverId}"`;
    default:
      return report.reason;
  }
}

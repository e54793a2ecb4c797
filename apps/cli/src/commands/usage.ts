import { MAX_USAGE_DAYS, type QuotaStatus, type UsageSummary } from '@mcp-agent/registry';
import { table, usage as usageError } from '../invocation.js';
import type { StackCommand } from './stack-command.js';

const QUOTA_FLAGS = {
  'max-calls-per-hour': 'maxCallsPerHour',
  'max-tokens-per-day': 'maxTokensPerDay',
  'max-servers-per-thread': 'maxServersPerThread',
} as const;

/** usage [--days N] | usage quota set --max-… N|default. */
export const usage: StackCommand = async (cli, stack, ctx, sub, rest) => {
  const { values, out } = cli;
  if (sub === undefined) {
    const raw = String(values.days ?? '30');
    const days = Number(raw);
    if (!Number.isInteger(days) || days < 1 || days > MAX_USAGE_DAYS)
      usageError(`--days must be a whole number from 1 to ${MAX_USAGE_DAYS}, not "${raw}"`);
    const [summary, quotas] = await Promise.all([
      stack.registry.usageSummary(ctx, { days }),
      stack.registry.quotaStatus(ctx),
    ]);
    out(render(ctx.userId, summary, quotas), { usage: summary, quotas });
    return;
  }
  if (sub !== 'quota' || rest[0] !== 'set')
    usageError(`unknown "usage ${[sub, ...rest].join(' ')}"; see mcp-agent usage --help`);
  // The operator's act: set this user's own limits (a number) or return to the deployment's.
  const limits: Record<string, number | null> = {};
  for (const [flag, name] of Object.entries(QUOTA_FLAGS)) {
    const value = values[flag];
    if (value === undefined) continue;
    const text = String(value);
    limits[name] = text === 'default' ? null : Number(text);
    if (text !== 'default' && !/^\d+$/.test(text))
      usageError(`--${flag} takes a whole number or "default", not "${text}"`);
  }
  if (Object.keys(limits).length === 0)
    usageError(
      'usage quota set needs --max-calls-per-hour, --max-tokens-per-day or --max-servers-per-thread',
    );
  const own = await stack.registry.setQuotaLimits(ctx, limits);
  const status = await stack.registry.quotaStatus(ctx);
  out(`quotas of ${ctx.userId}: ${describeLimits(status.limits)}`, { own, limits: status.limits });
};

function render(userId: string, summary: UsageSummary, quotas: QuotaStatus): string {
  const { totals } = summary;
  const lines = [
    `usage of ${userId}, ${summary.from} to ${summary.to} (UTC days)`,
    `  model requests ${totals.requests}, tokens in ${totals.inputTokens} (+${totals.cacheReadTokens} cached, +${totals.cacheWriteTokens} cache writes), out ${totals.outputTokens}`,
    `  tool calls ${totals.toolCalls} (${totals.toolErrors} failed, ${totals.toolDurationMs} ms)`,
    `  estimated cost $${totals.estimatedCostUsd.toFixed(6)}${summary.unpricedModels.length > 0 ? ` (not priced: ${summary.unpricedModels.join(', ')})` : ''}`,
    '',
  ];
  if (summary.days.length > 0) {
    lines.push(
      table([
        [
          'DAY',
          'REQUESTS',
          'TOKENS IN',
          'CACHED',
          'TOKENS OUT',
          'TOOL CALLS',
          'FAILED',
          'EST. COST',
        ],
        ...summary.days.map((d) => [
          d.day,
          String(d.requests),
          String(d.inputTokens),
          String(d.cacheReadTokens),
          String(d.outputTokens),
          String(d.toolCalls),
          String(d.toolErrors),
          `$${d.estimatedCostUsd.toFixed(6)}`,
        ]),
      ]),
      '',
    );
  }
  if (summary.servers.length > 0) {
    lines.push(
      table([
        ['SERVER', 'CALLS', 'FAILED', 'TOTAL MS'],
        ...summary.servers.map((c) => [
          c.server,
          String(c.calls),
          String(c.errors),
          String(c.durationMs),
        ]),
      ]),
      '',
    );
  }
  if (summary.models.length > 0) {
    lines.push(
      table([
        // The same columns as the day table: cached tokens apart from the others.
        ['MODEL', 'REQUESTS', 'TOKENS IN', 'CACHED', 'TOKENS OUT', 'EST. COST'],
        ...summary.models.map((m) => [
          m.model,
          String(m.requests),
          String(m.inputTokens),
          String(m.cacheReadTokens),
          String(m.outputTokens),
          m.estimatedCostUsd === null ? 'no price' : `$${m.estimatedCostUsd.toFixed(6)}`,
        ]),
      ]),
      '',
    );
  }
  lines.push(
    `quotas: ${describeLimits(quotas.limits)}`,
    `  this hour: ${quotas.callsThisHour} tool calls (resets ${quotas.hourResetsAt}); today: ${quotas.tokensToday} tokens (resets ${quotas.dayResetsAt})`,
    '  (counted only while a quota is set; costs are estimates from the price table)',
  );
  return lines.join('\n');
}

function describeLimits(limits: QuotaStatus['limits']): string {
  const parts = Object.entries(limits).map(([name, value]) => `${name} ${value}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

// What a suite run comes to: per mode, the success rate with its Wilson interval, and the mean
// tokens, steps and time per task with normal intervals; as JSON, as Markdown, and as an SVG
// chart of success against tokens.
import type { ToolMode } from '@mcp-agent/agent';
import type { TaskRun } from './run-suite.js';

/** A value with its 95% interval. */
export interface Interval {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

export interface ModeSummary {
  readonly mode: ToolMode;
  readonly tasks: number;
  readonly passed: number;
  /** Share of tasks passed, with its Wilson score interval. */
  readonly success: Interval;
  /** Mean tokens per task the model read (uncached input plus cache reads). */
  readonly contextTokens: Interval;
  readonly outputTokens: Interval;
  readonly cachedTokens: Interval;
  readonly steps: Interval;
  readonly wallMs: Interval;
  /** Total, or null when the model has no known price. */
  readonly costUsd: number | null;
}

const Z = 1.96;

/** The Wilson score interval of `passed` of `n` (95%). */
export function wilson(passed: number, n: number): Interval {
  if (n === 0) return { value: 0, low: 0, high: 0 };
  const p = passed / n;
  const denominator = 1 + (Z * Z) / n;
  const centre = (p + (Z * Z) / (2 * n)) / denominator;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / denominator;
  return {
    value: round(p),
    low: round(Math.max(0, centre - half)),
    high: round(Math.min(1, centre + half)),
  };
}

/** The mean with a normal 95% interval. */
export function meanInterval(values: readonly number[]): Interval {
  if (values.length === 0) return { value: 0, low: 0, high: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance =
    values.length < 2 ? 0 : values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  const half = Z * Math.sqrt(variance / values.length);
  return { value: round(mean), low: round(Math.max(0, mean - half)), high: round(mean + half) };
}

export function summarise(runs: readonly TaskRun[]): ModeSummary[] {
  const modes = [...new Set(runs.map((r) => r.mode))];
  return modes.map((mode) => {
    const of = runs.filter((r) => r.mode === mode);
    const passed = of.filter((r) => r.passed).length;
    const costs = of.map((r) => r.costUsd);
    return {
      mode,
      tasks: of.length,
      passed,
      success: wilson(passed, of.length),
      contextTokens: meanInterval(of.map((r) => r.inputTokens + r.cachedTokens)),
      outputTokens: meanInterval(of.map((r) => r.outputTokens)),
      cachedTokens: meanInterval(of.map((r) => r.cachedTokens)),
      steps: meanInterval(of.map((r) => r.steps)),
      wallMs: meanInterval(of.map((r) => r.wallMs)),
      costUsd: costs.some((c) => c === null)
        ? null
        : round(costs.reduce((a: number, b) => a + (b ?? 0), 0)),
    };
  });
}

/** The report as Markdown: the totals, then every task in every mode. */
export function markdownReport(model: string, runs: readonly TaskRun[]): string {
  const summary = summarise(runs);
  const range = (i: Interval, digits = 0) =>
    `${i.value.toFixed(digits)} (${i.low.toFixed(digits)}–${i.high.toFixed(digits)})`;
  const lines = [
    `# Task suite: ${model}`,
    '',
    'Intervals are 95%: Wilson for success, normal for means. Context tokens are uncached input plus cache reads, per task.',
    '',
    '| mode | passed | success | context tokens/task | output tokens/task | steps/task | ms/task | cost (USD) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...summary.map(
      (s) =>
        `| ${s.mode} | ${s.passed}/${s.tasks} | ${range(s.success, 2)} | ${range(s.contextTokens)} | ${range(s.outputTokens)} | ${range(s.steps, 1)} | ${range(s.wallMs)} | ${s.costUsd ?? 'n/a'} |`,
    ),
    '',
    '| task | mode | passed | steps | input | cached | output | ms | why it failed |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...runs.map(
      (r) =>
        `| ${r.task} | ${r.mode} | ${r.passed ? 'yes' : 'no'} | ${r.steps} | ${r.inputTokens} | ${r.cachedTokens} | ${r.outputTokens} | ${r.wallMs} | ${(r.reason ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 160)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

const COLOURS: Record<ToolMode, string> = {
  discovery: '#1b7f3b',
  'all-tools': '#b3261e',
  'code-first': '#1f5fbf',
};

/** Success rate (with its interval) against mean context tokens per task, one point per mode. */
export function svgChart(model: string, summary: readonly ModeSummary[]): string {
  const width = 640;
  const height = 400;
  const left = 70;
  const bottom = 50;
  const top = 40;
  const right = 160;
  // Ticks at a round step (1, 2 or 5 times a power of ten), the axis ending on one.
  const highest = Math.max(1, ...summary.map((s) => s.contextTokens.high));
  const magnitude = 10 ** Math.floor(Math.log10(highest / 4));
  const step = magnitude * ([1, 2, 5].find((m) => highest / (m * magnitude) <= 5) ?? 10);
  const maxTokens = Math.ceil((highest * 1.05) / step) * step;
  const x = (tokens: number) => left + (tokens / maxTokens) * (width - left - right);
  const y = (rate: number) => height - bottom - rate * (height - bottom - top);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const xTicks = Array.from({ length: Math.round(maxTokens / step) + 1 }, (_, i) => i * step);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="22" font-size="14">Success against context tokens per task — ${escape(model)}</text>`,
    `<line x1="${left}" y1="${y(0)}" x2="${width - right}" y2="${y(0)}" stroke="#333"/>`,
    `<line x1="${left}" y1="${y(0)}" x2="${left}" y2="${y(1)}" stroke="#333"/>`,
    ...ticks.map(
      (t) =>
        `<text x="${left - 8}" y="${y(t) + 4}" text-anchor="end">${Math.round(t * 100)}%</text><line x1="${left}" y1="${y(t)}" x2="${width - right}" y2="${y(t)}" stroke="#eee"/>`,
    ),
    ...xTicks.map((t) => `<text x="${x(t)}" y="${y(0) + 18}" text-anchor="middle">${t}</text>`),
    `<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle">mean context tokens per task (95% interval)</text>`,
    `<text x="18" y="${(top + height - bottom) / 2}" transform="rotate(-90 18 ${(top + height - bottom) / 2})" text-anchor="middle">tasks passed (Wilson 95%)</text>`,
  ];
  summary.forEach((s, i) => {
    const colour = COLOURS[s.mode];
    const cx = x(s.contextTokens.value);
    const cy = y(s.success.value);
    parts.push(
      `<line x1="${cx}" y1="${y(s.success.low)}" x2="${cx}" y2="${y(s.success.high)}" stroke="${colour}"/>`,
      `<line x1="${x(s.contextTokens.low)}" y1="${cy}" x2="${x(s.contextTokens.high)}" y2="${cy}" stroke="${colour}"/>`,
      `<circle cx="${cx}" cy="${cy}" r="5" fill="${colour}"><title>${s.mode}: ${s.passed}/${s.tasks}, ${s.contextTokens.value} tokens</title></circle>`,
      // The values beside the point, not only on hover: a PNG of the chart keeps them.
      `<text x="${cx > (left + width - right) / 2 ? cx - 8 : cx + 8}" y="${s.success.value > 0.8 ? cy + 20 + i * 14 : cy - 8 - i * 14}"${cx > (left + width - right) / 2 ? ' text-anchor="end"' : ''} fill="${colour}">${s.passed}/${s.tasks} · ${Math.round(s.contextTokens.value).toLocaleString('en-US')} tokens</text>`,
      `<rect x="${width - right + 16}" y="${top + i * 20}" width="10" height="10" fill="${colour}"/>`,
      `<text x="${width - right + 32}" y="${top + i * 20 + 9}">${s.mode} (${s.passed}/${s.tasks})</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function escape(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

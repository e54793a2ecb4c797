// What a suite run comes to: per size and mode, the success rate with its Wilson interval, and
// the mean tokens, steps and time per task with normal intervals; as JSON, as Markdown, and as an
// SVG chart of success against tokens.
import type { ToolMode } from '@mcp-agent/agent';
import type { TaskRun } from './run-suite.js';
import type { SuiteSize } from './suite-size.js';

/** A value with its 95% interval. */
export interface Interval {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

export interface ModeSummary {
  readonly mode: ToolMode;
  readonly size: SuiteSize;
  readonly tasks: number;
  readonly passed: number;
  /** Share of tasks passed, with its Wilson score interval. */
  readonly success: Interval;
  /** Mean tokens per task the model read (uncached input plus cache reads). */
  readonly contextTokens: Interval;
  /** Context tokens of every task over the tasks passed; null when none passed. */
  readonly tokensPerSolved: number | null;
  /** Tasks the input-token cap ended (`maxInputTokens`). */
  readonly capHits: number;
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

/** One summary per size and mode, in the order they first ran. */
export function summarise(runs: readonly TaskRun[]): ModeSummary[] {
  const groups = [...new Set(runs.map((r) => `${r.size} ${r.mode}`))];
  return groups.map((group) => {
    const of = runs.filter((r) => `${r.size} ${r.mode}` === group);
    const { mode, size } = of[0] as TaskRun;
    const passed = of.filter((r) => r.passed).length;
    const costs = of.map((r) => r.costUsd);
    const context = of.map((r) => r.inputTokens + r.cachedTokens);
    return {
      mode,
      size,
      tasks: of.length,
      passed,
      success: wilson(passed, of.length),
      contextTokens: meanInterval(context),
      tokensPerSolved: passed === 0 ? null : round(context.reduce((a, b) => a + b, 0) / passed),
      capHits: of.filter((r) => r.stoppedBy === 'maxInputTokens').length,
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
    "Intervals are 95%: Wilson for success, normal for means. Context tokens are uncached input plus cache reads, per task; per solved task, all tasks' context over the tasks passed. Sizes: small is the suite's own servers, scale adds the recorded catalogs as distractors. Cap hits: tasks the input-token cap ended.",
    '',
    '| size | mode | passed | success | context tokens/task | tokens/solved task | cap hits | output tokens/task | steps/task | ms/task | cost (USD) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...summary.map(
      (s) =>
        `| ${s.size} | ${s.mode} | ${s.passed}/${s.tasks} | ${range(s.success, 2)} | ${range(s.contextTokens)} | ${s.tokensPerSolved === null ? 'n/a' : Math.round(s.tokensPerSolved)} | ${s.capHits} | ${range(s.outputTokens)} | ${range(s.steps, 1)} | ${range(s.wallMs)} | ${s.costUsd ?? 'n/a'} |`,
    ),
    ...ratioLines(summary),
    '',
    '| task | size | mode | passed | steps | input | cached | output | ms | why it failed |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...runs.map(
      (r) =>
        `| ${r.task} | ${r.size} | ${r.mode} | ${r.passed ? 'yes' : 'no'} | ${r.steps} | ${r.inputTokens} | ${r.cachedTokens} | ${r.outputTokens} | ${r.wallMs} | ${(r.reason ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 160)} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/** Discovery's tokens per solved task against all tools up front's, at each size that ran both. */
export function discoveryRatios(
  summary: readonly ModeSummary[],
): { size: SuiteSize; ratio: number }[] {
  return [...new Set(summary.map((s) => s.size))].flatMap((size) => {
    const of = (mode: ToolMode) =>
      summary.find((s) => s.size === size && s.mode === mode)?.tokensPerSolved;
    const discovery = of('discovery');
    const allTools = of('all-tools');
    return discovery == null || allTools == null || allTools === 0
      ? []
      : [{ size, ratio: round(discovery / allTools) }];
  });
}

function ratioLines(summary: readonly ModeSummary[]): string[] {
  const ratios = discoveryRatios(summary);
  return ratios.length === 0
    ? []
    : [
        '',
        ...ratios.map(
          (r) =>
            `Discovery-first per solved task, ${r.size}: ${r.ratio.toFixed(3)}× the tokens of all tools up front.`,
        ),
      ];
}

const COLOURS: Record<ToolMode, string> = {
  discovery: '#1b7f3b',
  'all-tools': '#b3261e',
  'code-first': '#1f5fbf',
};

/**
 * Success rate (with its interval) against mean context tokens per task, one point per mode and
 * size (hollow at scale). The token axis is logarithmic when the points span more than 20×.
 */
export function svgChart(model: string, summary: readonly ModeSummary[]): string {
  const width = 720;
  const height = 400;
  const left = 70;
  const bottom = 50;
  const top = 40;
  const right = 240;
  const axis = tokenAxis(summary, left, width - right);
  const x = axis.x;
  const y = (rate: number) => height - bottom - rate * (height - bottom - top);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const xTicks = axis.ticks;
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
    `<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle">mean context tokens per task (95% interval${axis.log ? ', log scale' : ''})</text>`,
    `<text x="18" y="${(top + height - bottom) / 2}" transform="rotate(-90 18 ${(top + height - bottom) / 2})" text-anchor="middle">tasks passed (Wilson 95%)</text>`,
  ];
  summary.forEach((s, i) => {
    const colour = COLOURS[s.mode];
    const cx = x(s.contextTokens.value);
    const cy = y(s.success.value);
    parts.push(
      `<line x1="${cx}" y1="${y(s.success.low)}" x2="${cx}" y2="${y(s.success.high)}" stroke="${colour}"/>`,
      `<line x1="${x(s.contextTokens.low)}" y1="${cy}" x2="${x(s.contextTokens.high)}" y2="${cy}" stroke="${colour}"/>`,
      // At scale the point is hollow: the same colour per mode, the size told apart by the fill.
      `<circle cx="${cx}" cy="${cy}" r="5" fill="${s.size === 'scale' ? '#fff' : colour}" stroke="${colour}" stroke-width="2"><title>${s.mode}, ${s.size}: ${s.passed}/${s.tasks}, ${s.contextTokens.value} tokens</title></circle>`,
      // The values beside the point, not only on hover: a PNG of the chart keeps them.
      `<text x="${cx > (left + width - right) / 2 ? cx - 8 : cx + 8}" y="${s.success.value > 0.8 ? cy + 20 + i * 14 : cy - 8 - i * 14}"${cx > (left + width - right) / 2 ? ' text-anchor="end"' : ''} fill="${colour}">${s.passed}/${s.tasks} · ${Math.round(s.contextTokens.value).toLocaleString('en-US')} tokens</text>`,
      `<rect x="${width - right + 16}" y="${top + i * 20}" width="10" height="10" fill="${s.size === 'scale' ? '#fff' : colour}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${width - right + 32}" y="${top + i * 20 + 9}">${s.mode}, ${s.size} (${s.passed}/${s.tasks})</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

// Ticks at a round step (1, 2 or 5 times a power of ten), the axis ending on one; or, when the
// points span more than 20×, at powers of ten on a log scale (small and scale sizes together).
function tokenAxis(
  summary: readonly ModeSummary[],
  from: number,
  to: number,
): { x: (tokens: number) => number; ticks: number[]; log: boolean } {
  const highest = Math.max(1, ...summary.map((s) => s.contextTokens.high));
  const lowest = Math.max(1, Math.min(...summary.map((s) => s.contextTokens.low), highest));
  if (highest / lowest > 20) {
    const low = Math.floor(Math.log10(lowest));
    const high = Math.ceil(Math.log10(highest));
    return {
      x: (tokens) =>
        from + ((Math.log10(Math.max(tokens, 10 ** low)) - low) / (high - low)) * (to - from),
      ticks: Array.from({ length: high - low + 1 }, (_, i) => 10 ** (low + i)),
      log: true,
    };
  }
  const magnitude = 10 ** Math.floor(Math.log10(highest / 4));
  const step = magnitude * ([1, 2, 5].find((m) => highest / (m * magnitude) <= 5) ?? 10);
  const maxTokens = Math.ceil((highest * 1.05) / step) * step;
  return {
    x: (tokens) => from + (tokens / maxTokens) * (to - from),
    ticks: Array.from({ length: Math.round(maxTokens / step) + 1 }, (_, i) => i * step),
    log: false,
  };
}

function escape(text: string): string {
  return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

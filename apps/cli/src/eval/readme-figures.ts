// The READMEs' task-suite figures, written from a run's report.json instead of typed by hand:
// each README marks its figures with `<!-- tasks:<name>:start -->` … `<!-- tasks:<name>:end -->`
// and `scripts/tasks-readme.mjs <report.json>` rewrites what is between (see apps/cli/README.md).
import type { EvalTask } from './eval-task.js';
import type { ModeSummary } from './suite-report.js';

/** What report.json holds that the figures need. */
export interface ReportFigures {
  readonly model: string;
  readonly queries?: string;
  readonly summary: readonly ModeSummary[];
}

const MODE_NAMES: Record<string, string> = {
  discovery: 'discovery',
  'all-tools': 'all tools up front',
  'code-first': 'code-first',
};

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const kilo = (value: number) =>
  value >= 1e6 ? `${(value / 1e6).toFixed(2)}M` : `${(value / 1000).toFixed(1)}k`;

/**
 * Each marked block's text, by name: `table` (per mode, and per size when the run had both) and
 * `summary` (a sentence per size).
 */
export function readmeFigures(report: ReportFigures): Record<'table' | 'summary', string> {
  const sizeOf = (s: ModeSummary) => s.size;
  const sized = report.summary.some((s) => sizeOf(s) !== 'small');
  const rows = report.summary.map((s) => [
    ...(sized ? [sizeOf(s)] : []),
    MODE_NAMES[s.mode] ?? s.mode,
    `${s.passed}/${s.tasks}`,
    ...(sized
      ? [`${s.success.value.toFixed(2)} (${s.success.low.toFixed(2)}–${s.success.high.toFixed(2)})`]
      : []),
    `${thousands(s.contextTokens.value)} (${thousands(s.contextTokens.low)}–${thousands(s.contextTokens.high)})`,
    ...(sized
      ? [s.tokensPerSolved === null ? 'n/a' : thousands(s.tokensPerSolved), String(s.capHits)]
      : []),
    thousands(s.cachedTokens.value),
    thousands(s.outputTokens.value),
  ]);
  const header = [
    ...(sized ? ['size'] : []),
    'mode',
    'passed',
    ...(sized ? ['success (95%)'] : []),
    'context tokens/task (95%)',
    ...(sized ? ['tokens/solved task', 'cap hits'] : []),
    'of which cache reads',
    'output tokens/task',
  ];
  const table = markdownTable(header, rows);
  const of = (mode: string, size: string) =>
    report.summary.find((s) => s.mode === mode && sizeOf(s) === size);
  const discovery = of('discovery', 'small');
  const allTools = of('all-tools', 'small');
  const small =
    discovery === undefined || allTools === undefined
      ? ''
      : `For the same work the ${report.model} reads ${kilo(discovery.contextTokens.value)} tokens a task discovery-first against ${kilo(allTools.contextTokens.value)} with all tools up front (${(allTools.contextTokens.value / discovery.contextTokens.value).toFixed(1)}×); it passes ${discovery.passed}/${discovery.tasks} discovery-first${report.queries === undefined ? '' : ` searching with ${report.queries} queries`}.`;
  const scaleDiscovery = of('discovery', 'scale');
  const scaleAll = of('all-tools', 'scale');
  const scale =
    scaleDiscovery?.tokensPerSolved == null || scaleAll?.tokensPerSolved == null
      ? ''
      : ` With the recorded catalogs connected beside them (--size scale), discovery-first reads ${kilo(scaleDiscovery.tokensPerSolved)} tokens per solved task against ${kilo(scaleAll.tokensPerSolved)} (${(scaleDiscovery.tokensPerSolved / scaleAll.tokensPerSolved).toFixed(3)}×), and passes ${scaleDiscovery.passed}/${scaleDiscovery.tasks}.`;
  return { table, summary: `${small}${scale}`.trim() };
}

/** `text` with the block `name` replaced by `content`; an error when the markers are missing. */
export function replaceBlock(text: string, name: string, content: string): string {
  const start = `<!-- tasks:${name}:start -->`;
  const end = `<!-- tasks:${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`no ${start} … ${end} block`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/** Every task as a Markdown table: id, request, kind, servers and what its checker reads. */
export function taskTable(tasks: readonly EvalTask[]): string {
  const rows = tasks.map((t) => [
    `\`${t.id}\``,
    t.prompt,
    t.kind,
    t.servers.length === 0 ? '—' : t.servers.join(', '),
    t.checks,
  ]);
  return markdownTable(['task', 'request (as the user asks)', 'kind', 'servers', 'checker'], rows);
}

function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => cell(r[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => cell(c).padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n');
}

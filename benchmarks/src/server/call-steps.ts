// Each step's share of a gateway call, from a V8 CPU profile (`node --cpu-prof`) of the
// gateway while it served only calls: every sample is given to the step of the innermost frame
// that names one (database frames to the link above them when the stack shows one; after an await it does not, so most land in `database`), so nothing is timed in production.
import { readFileSync } from 'node:fs';
import { round3 } from '@mcp-agent/core/testing';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** The steps of a call, in the words, and what else a process spends time on. */
export type CallStep =
  | 'validation'
  | 'policy'
  | 'rate_limit'
  | 'quota'
  | 'usage'
  | 'tracing'
  | 'dispatch'
  | 'serialisation'
  | 'transport'
  | 'database'
  | 'gc'
  | 'other';

// Checked from the sampled frame outwards: the first strong match names the step. A database
// frame is weak: the link above it (quota, usage, rate limit) gets its time when there is one.
const STRONG: readonly [CallStep, RegExp][] = [
  ['validation', /schema-validator|payload-limits|\/ajv\/|\/zod\//],
  ['policy', /policy-link|user-server-policy/],
  ['rate_limit', /rate-limit/],
  ['quota', /quota/],
  ['usage', /usage-link|repositories\/usage|task-meter|write-behind/],
  ['tracing', /telemetry|opentelemetry|logging-link|metrics-link|\/logger\.js|pino/],
  [
    'serialisation',
    /^(stringify|parse|JSON\.\w+|serializeMessage|deserializeMessage|parseJsonRpcLine|readMessage|encode|decode)$/,
  ],
  [
    'transport',
    /node:net|stream_base_commons|node:internal\/streams|node:_http|node:http|undici|hono|node-server|[/-]stdio[.-]|line-limit|event-store/,
  ],
  [
    'dispatch',
    /dispatcher|\/pool\/|tool-resolver|tool-call|sdk\/dist\/esm\/shared\/protocol|sdk\/dist\/esm\/client|sdk\/dist\/esm\/server|gateway|meta-tool|normalize-result/,
  ],
];
const WEAK = /kysely|better-sqlite3|\/database\/|\/pg\//;

/** Shares (0–1) of the busy samples between `fromUs` and `toUs` (V8 monotonic µs). */
export function callSteps(
  file: string,
  window: { fromUs: number; toUs: number; calls: number },
): { samples: number; share: Record<CallStep, number>; ms_per_call: Record<CallStep, number> } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const stepOf = new Map<number, CallStep | null>();
  const classify = (id: number): CallStep | null => {
    const known = stepOf.get(id);
    if (known !== undefined) return known;
    const leaf = byId.get(id)?.callFrame;
    let step: CallStep | null = null;
    if (leaf?.functionName === '(idle)' || leaf?.functionName === '(root)') step = null;
    else if (leaf?.functionName === '(garbage collector)') step = 'gc';
    else {
      let weak = false;
      for (
        let at: number | undefined = id;
        at !== undefined && step === null;
        at = parent.get(at)
      ) {
        const frame = byId.get(at)?.callFrame;
        if (frame === undefined) break;
        const where = `${frame.url} ${frame.functionName}`;
        if (WEAK.test(frame.url)) weak = true;
        for (const [name, pattern] of STRONG) {
          const text = name === 'serialisation' ? frame.functionName : where;
          if (pattern.test(text)) {
            step = name;
            break;
          }
        }
      }
      step ??= weak ? 'database' : 'other';
    }
    stepOf.set(id, step);
    return step;
  };
  const micros = Object.fromEntries(
    (
      [
        'validation',
        'policy',
        'rate_limit',
        'quota',
        'usage',
        'tracing',
        'dispatch',
        'serialisation',
        'transport',
        'database',
        'gc',
        'other',
      ] as const
    ).map((step) => [step, 0]),
  ) as Record<CallStep, number>;
  let at = profile.startTime;
  let samples = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < window.fromUs || at > window.toUs) continue;
    const step = classify(profile.samples[i] as number);
    if (step === null) continue;
    // A sample stands for the time until the next one.
    micros[step] += profile.timeDeltas[i + 1] ?? delta;
    samples += 1;
  }
  const busy = Object.values(micros).reduce((sum, value) => sum + value, 0) || 1;
  const share = {} as Record<CallStep, number>;
  const perCall = {} as Record<CallStep, number>;
  for (const [step, value] of Object.entries(micros) as [CallStep, number][]) {
    share[step] = round3(value / busy);
    perCall[step] = round3(value / 1000 / Math.max(1, window.calls));
  }
  return { samples, share, ms_per_call: perCall };
}

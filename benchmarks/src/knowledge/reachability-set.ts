import { readFileSync } from 'node:fs';

/**
 * One labelled request of a reachability set (`bench-data/blind/README.md`): who it was written
 * for, the request, and the tools it needs — each step a list of alternatives, none for a request
 * nothing connected can serve.
 */
export interface ReachabilityRequest {
  /** Its line in the set file, 1-based, for reports. */
  readonly line: number;
  /** `server:<id>`, `task:<id>` or `none`. */
  readonly target: string;
  /** The request as a user or a model would put it. */
  readonly request: string;
  /** Each step the request needs, as the tool ids (`<server>.<tool>`) any one of which serves it. */
  readonly needs: readonly (readonly string[])[];
}

/** Reads a set file: one JSON object a line with `target`, `request` and `needs`. */
export function readReachabilitySet(file: string): ReachabilityRequest[] {
  const requests: ReachabilityRequest[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      const where = `${file}:${i + 1}`;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch {
        throw new Error(`${where} is not JSON: each line is one object {target, request, needs}`);
      }
      const { target, request, needs } = (row ?? {}) as Record<string, unknown>;
      if (typeof target !== 'string' || !/^(server:|task:|none$)/.test(target))
        throw new Error(`${where}: "target" must be "server:<id>", "task:<id>" or "none"`);
      if (typeof request !== 'string' || request.trim() === '')
        throw new Error(`${where}: "request" must be the request's text`);
      if (
        !Array.isArray(needs) ||
        !needs.every(
          (step) =>
            Array.isArray(step) &&
            step.length > 0 &&
            step.every((id) => typeof id === 'string' && id.includes('.')),
        )
      )
        throw new Error(
          `${where}: "needs" must be a list of steps, each a non-empty list of tool ids "<server>.<tool>" ([] when nothing connected serves it)`,
        );
      requests.push({ line: i + 1, target, request, needs: needs as string[][] });
    });
  return requests;
}

/** How one request fared against one catalog. */
export type Outcome =
  /** Nothing connected can serve it, and the label says so. */
  | { readonly kind: 'none'; readonly noGoodMatch: boolean }
  /** It needs tools, but none of one step's alternatives is connected here. */
  | { readonly kind: 'unservable'; readonly noGoodMatch: boolean }
  | {
      readonly kind: 'servable';
      readonly noGoodMatch: boolean;
      /** Every step has an alternative among the search's first five tools. */
      readonly top5: boolean;
      /** Every step is in the first five or on one of the first two servers the answer names. */
      readonly twoCalls: boolean;
      /** The servers browsed for the steps not in the first five (at most the first two). */
      readonly browsed: readonly string[];
    };

/**
 * Scores one request: `top5` the ids of the search's first five tools, `servers` the servers
 * the answer names, best first; `connected` whether a tool id is in the catalog searched.
 */
export function scoreRequest(
  needs: readonly (readonly string[])[],
  found: { top5: readonly string[]; servers: readonly string[]; noGoodMatch: boolean },
  connected: (id: string) => boolean,
): Outcome {
  const { noGoodMatch } = found;
  if (needs.length === 0) return { kind: 'none', noGoodMatch };
  const steps = needs.map((step) => step.filter(connected));
  if (steps.some((step) => step.length === 0)) return { kind: 'unservable', noGoodMatch };
  const inTop = (step: readonly string[]) => step.some((id) => found.top5.includes(id));
  const firstTwo = found.servers.slice(0, 2);
  const browsed = new Set<string>();
  let twoCalls = true;
  for (const step of steps) {
    if (inTop(step)) continue;
    const server = firstTwo.find((s) => step.some((id) => serverOf(id) === s));
    if (server === undefined) twoCalls = false;
    else browsed.add(server);
  }
  return {
    kind: 'servable',
    noGoodMatch,
    top5: steps.every(inTop),
    twoCalls,
    browsed: [...browsed],
  };
}

/** The server of a tool id `<server>.<tool>`. */
export function serverOf(id: string): string {
  return id.slice(0, id.indexOf('.'));
}

/** Shares over a catalog's outcomes, rounded to 3 decimals (null when there is nothing to share). */
export function summarizeOutcomes(outcomes: readonly Outcome[]): {
  servable: number;
  unservable: number;
  none: number;
  top5: number | null;
  two_calls: number | null;
  false_no_match: number | null;
  true_no_match: number | null;
} {
  const share = (part: number, whole: number) =>
    whole === 0 ? null : Math.round((part / whole) * 1000) / 1000;
  const servable = outcomes.flatMap((o) => (o.kind === 'servable' ? [o] : []));
  const none = outcomes.filter((o) => o.kind === 'none');
  return {
    servable: servable.length,
    unservable: outcomes.filter((o) => o.kind === 'unservable').length,
    none: none.length,
    top5: share(servable.filter((o) => o.top5).length, servable.length),
    two_calls: share(servable.filter((o) => o.twoCalls).length, servable.length),
    false_no_match: share(servable.filter((o) => o.noGoodMatch).length, servable.length),
    true_no_match: share(none.filter((o) => o.noGoodMatch).length, none.length),
  };
}

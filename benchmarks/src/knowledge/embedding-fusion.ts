import { fuseSignals, type SearchDocument, type SearchHit } from '@mcp-agent/knowledge';

/** How an embedder's ranking joins the lexical one in the benches' hybrid configurations. */
export interface EmbeddingFusionOptions {
  /** The embedder's weight in the fusion, 0–1 (`fuseSignals`); unused when `slot` is set. */
  readonly weight: number;
  /**
   * Instead of weighing: the last `slot` of the answer's five places go to the embedder's best
   * tools not already among the lexical first `5 − slot`; the rest of the list stays lexical.
   */
  readonly slot?: number;
  /**
   * The embedder takes part only when the best lexical relevance is under this (the words do
   * not answer the request); unset, always.
   */
  readonly gate?: number;
}

/** One tool's similarity to a query, as the embedder ranks it. */
export interface NearestTool {
  readonly id: string;
  readonly similarity: number;
}

// The places of a search answer (search_tools' default limit).
const ANSWER = 5;

/**
 * The lexical ranking of one query joined with the embedder's nearest tools, by
 * {@link EmbeddingFusionOptions}: weighed (the search's own `fuseSignals`), or given the last
 * places of the answer; unchanged when the gate says the words already answer.
 */
export function fuseWithEmbedding(
  lexical: readonly SearchHit[],
  nearest: readonly NearestTool[],
  options: EmbeddingFusionOptions,
  lookup: (id: string) => SearchDocument | undefined,
): SearchHit[] {
  const best = Math.max(0, ...lexical.map((hit) => hit.relevance));
  if (options.gate !== undefined && best >= options.gate) return [...lexical];
  if (options.slot !== undefined && options.slot > 0)
    return slotted(lexical, nearest, Math.min(options.slot, ANSWER), lookup);
  const hits = nearest.map(({ id, similarity }) => ({ id, score: similarity }));
  return fuseSignals(lexical, [{ weight: options.weight, hits }], lookup);
}

// The first `ANSWER − slots` lexical hits, the embedder's best `slots` not among them (a tool
// only the embedder found has relevance 0, as in the search's fusion), then the rest.
function slotted(
  lexical: readonly SearchHit[],
  nearest: readonly NearestTool[],
  slots: number,
  lookup: (id: string) => SearchDocument | undefined,
): SearchHit[] {
  const head = lexical.slice(0, ANSWER - slots);
  const placed = new Set(head.map((hit) => hit.id));
  const extra: SearchHit[] = [];
  for (const { id } of nearest) {
    if (extra.length === slots) break;
    if (placed.has(id)) continue;
    const doc = lookup(id);
    if (doc === undefined) continue;
    placed.add(id);
    extra.push(
      lexical.find((hit) => hit.id === id) ?? {
        id,
        server: doc.server,
        name: doc.name,
        score: 0,
        relevance: 0,
      },
    );
  }
  return [...head, ...extra, ...lexical.filter((hit) => !placed.has(hit.id))];
}

/**
 * `--embedding-slot <k>` and `--embedding-gate <relevance>` read and checked.
 *
 * @throws Error naming the flag and what it takes, for a value out of range.
 */
export function fusionFlags(
  slot: string | undefined,
  gate: string | undefined,
): { slot?: number; gate?: number } {
  const k = slot === undefined ? undefined : Number(slot);
  if (k !== undefined && !(Number.isInteger(k) && k >= 1 && k <= ANSWER))
    throw new Error(`--embedding-slot takes a whole number from 1 to ${ANSWER}, not "${slot}"`);
  const g = gate === undefined ? undefined : Number(gate);
  if (g !== undefined && !(g > 0 && g <= 1))
    throw new Error(`--embedding-gate takes a relevance above 0 and at most 1, not "${gate}"`);
  return { ...(k === undefined ? {} : { slot: k }), ...(g === undefined ? {} : { gate: g }) };
}

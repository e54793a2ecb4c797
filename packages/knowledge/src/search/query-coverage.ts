import type { InvertedIndex, QueryTerm } from './inverted-index.js';

/** A query as it is scored. */
export interface PreparedQuery {
  /** The query's distinct terms that are searched, in query order. */
  readonly terms: readonly string[];
  /** What is scored: those terms, their expansions and word pairs. */
  readonly query: readonly QueryTerm[];
}

// The catalog size coverage reckons information in, whatever the real size.
const RELEVANCE_CATALOG = 1_000;
// The IDF of a word no tool has, in that catalog: the most information one word carries.
const MOST_INFORMATION = Math.log(1 + (RELEVANCE_CATALOG + 0.5) / 0.5);

/**
 * How much of the query each tool's text answers: the share of the query's information
 * (IDF-weighted terms) that the tool holds, 0–1, per slot (`undefined`: 0). Each term weighs its
 * IDF, reckoned as if the catalog had 1,000 tools with the same share holding it, so that a
 * coverage means the same in a 9-tool catalog as in a 9,000-tool one; a term no tool has weighs
 * `absentWeight` times that (nothing here answers it, or it is a value such as "Paris");
 * thesaurus terms and completions count with their credit. The query's information is counted up
 * to `informationCap` words of the most information (a word no tool has): a long request tells
 * more (context, values, courtesy) than any one tool answers, and a tool that answers that much of
 * it is answering the request, however much else it says. What the tool is "about" (its name,
 * the first words of its description) is deliberately not required: a request in other words
 * than a tool's name is still answered by its description (#29).
 */
export function queryCoverage(
  tools: InvertedIndex,
  slots: readonly (number | undefined)[],
  { terms, query }: PreparedQuery,
  absentWeight: number,
  informationCap = Infinity,
): number[] {
  if (terms.length === 0) return slots.map(() => 0);
  const count = tools.count || 1;
  const information = (term: string) => {
    const df = tools.documentFrequency(term);
    const scaled = (df * RELEVANCE_CATALOG) / count;
    const idf = Math.log(1 + (RELEVANCE_CATALOG - scaled + 0.5) / (scaled + 0.5));
    return df === 0 ? absentWeight * idf : idf;
  };
  const termInformation = terms.map(information);
  const queryInformation = Math.min(
    termInformation.reduce((a, b) => a + b, 0),
    informationCap * absentWeight * MOST_INFORMATION,
  );
  // What a tool term answers: (query term position, credit) for the term itself and for each
  // expansion.
  const answers = new Map<string, [number, number][]>();
  terms.forEach((term, i) => answers.set(term, [[i, 1]]));
  for (const { term, source, credit } of query) {
    if (source === undefined || credit === undefined) continue;
    let list = answers.get(term);
    if (list === undefined) answers.set(term, (list = []));
    list.push([source, credit]);
  }
  const credits = new Float64Array(terms.length);
  return slots.map((slot) => {
    if (slot === undefined || queryInformation === 0) return 0;
    credits.fill(0);
    for (const term of tools.termsOf(slot)) {
      for (const [at, credit] of answers.get(term) ?? [])
        credits[at] = Math.max(credits[at]!, credit);
    }
    let answered = 0;
    for (let i = 0; i < terms.length; i++) answered += termInformation[i]! * credits[i]!;
    return Math.min(1, answered / queryInformation);
  });
}

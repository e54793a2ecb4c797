import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { round3 } from '@mcp-agent/core/testing';
import { type SearchDocument, ToolSearchIndex } from '@mcp-agent/knowledge';
import { byServer, readCorpus, readQueries, toSearchDocument } from '@mcp-agent/knowledge/testing';
import { rankingFromEnv } from './ranking-from-env.js';

// Where one query stood: its best hit's relevance with its tools in the catalog, without them,
// and without their whole servers.
interface Trial {
  readonly folder: string;
  readonly held: boolean;
  readonly present: number;
  readonly foundInTop5: boolean;
  readonly toolsRemoved: number;
  readonly serversRemoved: number;
}

// The rates a threshold gives on a set of trials.
interface Rates {
  readonly queries: number;
  /** Tools removed: share of queries the search says "no good match" for (true negatives). */
  readonly no_match_when_tools_removed: number | null;
  /** Their whole servers removed (the "no GitHub server connected" case). */
  readonly no_match_when_servers_removed: number | null;
  /** Tools present: share said "no good match" wrongly. */
  readonly false_no_match: number | null;
  /** Of those whose tool is in the top 5: share said "no good match" wrongly. */
  readonly false_no_match_when_found: number | null;
}

/**
 * `pnpm bench no-match <folder> [<folder>…]`: how far "no good match" can be trusted. For each
 * query of each retrieval folder, the search runs with its relevant tools in the catalog, with
 * them removed, and with their servers removed; "no good match" is the best hit's relevance
 * under a threshold. The threshold is chosen on one half of the queries (split by a hash of the
 * query id, all folders pooled: one threshold for every catalog) and reported on the other,
 * with the figures at the shipped default too.
 */
export function runNoMatchBenchmark(...folders: string[]): Record<string, unknown> {
  const ranking = rankingFromEnv();
  const trials: Trial[] = [];
  let shipped = 0;
  for (const folder of folders) {
    const name = basename(resolve(folder));
    const documents = readCorpus(folder).map(toSearchDocument);
    const groups = byServer(documents);
    const serverOf = new Map(documents.map((doc) => [doc.id, doc.server]));
    const index = new ToolSearchIndex(ranking);
    shipped = index.ranking.relevance.goodMatch;
    for (const [server, docs] of groups) index.setServer(server, docs);
    const best = (query: string) =>
      Math.max(0, ...index.search(query, { limit: 5 }).map((hit) => hit.relevance));
    for (const query of readQueries(folder)) {
      const relevant = new Set(query.relevant);
      const servers = new Set(
        query.relevant.map((id) => serverOf.get(id)).filter((p) => p !== undefined),
      );
      const restore = () => {
        for (const server of servers) index.setServer(server, groups.get(server)!);
      };
      const top5 = index.search(query.query, { limit: 5 });
      const present = Math.max(0, ...top5.map((hit) => hit.relevance));
      for (const server of servers) {
        const kept = groups.get(server)!.filter((doc: SearchDocument) => !relevant.has(doc.id));
        if (kept.length === 0) index.removeServer(server);
        else index.setServer(server, kept);
      }
      const toolsRemoved = best(query.query);
      // A catalog without servers (server "") has each tool as its own server.
      let serversRemoved = toolsRemoved;
      if (!servers.has('')) {
        for (const server of servers) index.removeServer(server);
        serversRemoved = best(query.query);
      }
      restore();
      trials.push({
        folder: name,
        held: isHeldOut(query.id),
        present,
        foundInTop5: top5.some((hit) => relevant.has(hit.id)),
        toolsRemoved,
        serversRemoved,
      });
    }
  }
  const tuning = trials.filter((t) => !t.held);
  const folderNames = [...new Set(trials.map((t) => t.folder))];
  const chosen = chooseThreshold(folderNames.map((f) => tuning.filter((t) => t.folder === f)));
  const byFolder = (threshold: number, held: boolean) =>
    Object.fromEntries(
      folderNames.map((folder) => [
        folder,
        rates(
          trials.filter((t) => t.folder === folder && t.held === held),
          threshold,
        ),
      ]),
    );
  return {
    benchmark: 'no-match',
    folders: folders.map((f) => basename(resolve(f))),
    rule: 'on the tuning half: the threshold with the most "no good match" on removed tools (mean over folders) while false "no good match" stays at most 2% in every folder',
    chosen_threshold: chosen,
    shipped_threshold: shipped,
    // What other thresholds would trade, on the tuning half: [threshold, removed, false].
    tuning_curve: Object.fromEntries(
      folderNames.map((folder) => [
        folder,
        Array.from({ length: 19 }, (_, i) => {
          const threshold = round3((i + 1) * 0.05);
          const r = rates(
            tuning.filter((t) => t.folder === folder),
            threshold,
          );
          return [threshold, r.no_match_when_tools_removed, r.false_no_match];
        }),
      ]),
    ),
    tuning_half_at_chosen: byFolder(chosen, false),
    held_out_at_chosen: byFolder(chosen, true),
    held_out_at_shipped: byFolder(shipped, true),
  };
}

// Half the queries of every folder, by a hash of the id: the same split on every run.
function isHeldOut(id: string): boolean {
  return createHash('sha256').update(`no-match:${id}`).digest()[0]! % 2 === 1;
}

const MAX_FALSE_NO_MATCH = 0.02;

function chooseThreshold(folders: readonly (readonly Trial[])[]): number {
  let chosen = 0;
  let bestTrueNegatives = -1;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  for (let step = 0; step <= 100; step++) {
    const threshold = step / 100;
    const r = folders.map((trials) => rates(trials, threshold));
    if (r.some((x) => (x.false_no_match ?? 0) > MAX_FALSE_NO_MATCH)) continue;
    const trueNegatives = mean(r.map((x) => x.no_match_when_tools_removed ?? 0));
    if (trueNegatives > bestTrueNegatives) {
      bestTrueNegatives = trueNegatives;
      chosen = threshold;
    }
  }
  return chosen;
}

function rates(trials: readonly Trial[], threshold: number): Rates {
  const share = (list: readonly Trial[], noMatch: (t: Trial) => boolean) =>
    list.length === 0 ? null : round3(list.filter(noMatch).length / list.length);
  return {
    queries: trials.length,
    no_match_when_tools_removed: share(trials, (t) => t.toolsRemoved < threshold),
    no_match_when_servers_removed: share(trials, (t) => t.serversRemoved < threshold),
    false_no_match: share(trials, (t) => t.present < threshold),
    false_no_match_when_found: share(
      trials.filter((t) => t.foundInTop5),
      (t) => t.present < threshold,
    ),
  };
}

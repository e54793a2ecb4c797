import type { BenchQuery } from '@mcp-agent/knowledge/testing';

/** The metrics of `../shared/bench/README.md` for one query. */
export interface QueryMetrics {
  readonly recall: Record<1 | 3 | 5 | 10, number>;
  readonly ndcg5: number;
  readonly ndcg10: number;
  readonly reciprocalRank: number;
  readonly groupRecall5: number | undefined;
  readonly serverRecall5: number;
}

/** Scores one ranked list of ids against a query's relevant ids. */
export function scoreQuery(
  query: BenchQuery,
  ranked: readonly string[],
  serverOf: (id: string) => string,
): QueryMetrics {
  const relevant = new Set(query.relevant);
  const recallAt = (k: number) =>
    ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
  const dcg = (k: number) =>
    ranked
      .slice(0, k)
      .reduce((sum, id, i) => sum + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = (k: number) =>
    Array.from({ length: Math.min(k, relevant.size) }, (_, i) => 1 / Math.log2(i + 2)).reduce(
      (a, b) => a + b,
      0,
    );
  const firstHit = ranked.findIndex((id) => relevant.has(id));
  const top5 = ranked.slice(0, 5);
  const groups = query.relevant_groups;
  const relevantServers = new Set(query.relevant.map(serverOf));
  const top5Servers = new Set(top5.map(serverOf));
  return {
    recall: { 1: recallAt(1), 3: recallAt(3), 5: recallAt(5), 10: recallAt(10) },
    ndcg5: dcg(5) / ideal(5),
    ndcg10: dcg(10) / ideal(10),
    reciprocalRank: firstHit < 0 ? 0 : 1 / (firstHit + 1),
    groupRecall5:
      groups === undefined || groups.length === 0
        ? undefined
        : groups.filter((g) => g.alternatives.some((id) => top5.includes(id))).length /
          groups.length,
    serverRecall5:
      [...relevantServers].filter((s) => top5Servers.has(s)).length / relevantServers.size,
  };
}

/** Means over queries, rounded to 3 decimals. */
export function summarize(all: readonly QueryMetrics[]): Record<string, number | null> {
  const mean = (values: number[]) =>
    values.length === 0
      ? null
      : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000;
  const groups = all.map((m) => m.groupRecall5).filter((v): v is number => v !== undefined);
  return {
    'recall@1': mean(all.map((m) => m.recall[1])),
    'recall@3': mean(all.map((m) => m.recall[3])),
    'recall@5': mean(all.map((m) => m.recall[5])),
    'recall@10': mean(all.map((m) => m.recall[10])),
    'ndcg@5': mean(all.map((m) => m.ndcg5)),
    'ndcg@10': mean(all.map((m) => m.ndcg10)),
    mrr: mean(all.map((m) => m.reciprocalRank)),
    'group_recall@5': mean(groups),
    'server_recall@5': mean(all.map((m) => m.serverRecall5)),
  };
}

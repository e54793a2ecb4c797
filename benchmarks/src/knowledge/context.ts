import { basename, resolve } from 'node:path';
import {
  toDocument,
  ToolSearchIndex,
  describeTool,
  inventoryView,
  trimText,
} from '@mcp-agent/knowledge';
import { countTokens, manifestOf, toToolSpecs, readCorpus } from '@mcp-agent/knowledge/testing';
import { round3 } from '@mcp-agent/core/testing';

const WALKS = 50;

/**
 * `pnpm bench context <folder> [<more folders>…]`: tokens (o200k_base, gpt-tokenizer) of every
 * tool definition up front against the inventory view and a typical discovery walk (inventory +
 * two searches of 5 hits + deep views of 3 tools), over the tools of all folders together, and
 * the tokens of one deep view alone.
 */
export function runContextBenchmark(...folders: string[]): Record<string, unknown> {
  const specs = toToolSpecs(folders.flatMap((folder) => readCorpus(folder)));
  const upFront = countTokens(
    JSON.stringify(
      specs.map((s) => ({ name: s.id, description: s.description, input_schema: s.inputSchema })),
    ),
  );
  const inventory = inventoryView(manifestOf(specs));
  const inventoryTokens = countTokens(inventory);

  const index = new ToolSearchIndex();
  const byServer = new Map<string, ReturnType<typeof toDocument>[]>();
  for (const spec of specs)
    byServer.set(spec.serverId, [...(byServer.get(spec.serverId) ?? []), toDocument(spec)]);
  for (const [server, docs] of byServer) index.setServer(server, docs);
  const byId = new Map<string, (typeof specs)[number]>(specs.map((s) => [s.id, s]));

  // Deterministic walks: the queries are the first words of tools' own descriptions, spread
  // evenly over the catalog.
  const walks: number[] = [];
  const views: number[] = [];
  const step = Math.max(1, Math.floor(specs.length / WALKS));
  for (let i = 0; i < specs.length && walks.length < WALKS; i += step) {
    const target = specs[i]!;
    const other = specs[(i + Math.floor(specs.length / 2)) % specs.length]!;
    const queries = [target, other].map(
      (s) => `${s.name.replace(/_/g, ' ')} ${trimText(s.description, 80)}`,
    );
    const searches = queries.map((q) =>
      index.search(q, { limit: 5 }).map((hit) => ({
        tool_id: hit.id,
        description: trimText(byId.get(hit.id)?.description ?? '', 160),
        score: hit.score,
      })),
    );
    const described = searches[0]!.slice(0, 3).map((hit) => describeTool(byId.get(hit.tool_id)!));
    for (const view of described) views.push(countTokens(JSON.stringify(view)));
    walks.push(
      inventoryTokens +
        countTokens(JSON.stringify(searches[0])) +
        countTokens(JSON.stringify(searches[1])) +
        countTokens(JSON.stringify(described)),
    );
  }
  const mean = Math.round(walks.reduce((a, b) => a + b, 0) / walks.length);
  const max = Math.max(...walks);
  return {
    benchmark: 'context',
    folders: folders.map((f) => basename(resolve(f))),
    tokenizer: 'o200k_base (gpt-tokenizer)',
    tools: specs.length,
    servers: byServer.size,
    up_front_tokens: upFront,
    inventory_tokens: inventoryTokens,
    inventory_budget: 1500,
    inventory_within_budget: inventoryTokens <= 1500,
    walk_tokens: { mean, max, walks: walks.length },
    walk_share_of_up_front: { mean: round3(mean / upFront), max: round3(max / upFront) },
    // One deep view alone, over the tools the walks described.
    deep_view_tokens: {
      mean: Math.round(views.reduce((a, b) => a + b, 0) / Math.max(1, views.length)),
      max: Math.max(0, ...views),
      views: views.length,
    },
  };
}

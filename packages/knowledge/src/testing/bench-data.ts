import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchDocument } from '../search/search-document.js';
import { searchParameter } from '../tool-document.js';

/** One tool line of a benchmark corpus (`../shared/bench/README.md`). */
export interface BenchTool {
  readonly id: string;
  readonly server?: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: { properties?: Record<string, { description?: string }> };
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/** One query line of a retrieval set. */
export interface BenchQuery {
  readonly id: string;
  readonly query: string;
  readonly relevant: readonly string[];
  readonly relevant_groups?: readonly { readonly alternatives: readonly string[] }[];
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The tools of a benchmark folder. */
export function readCorpus(folder: string): BenchTool[] {
  return readJsonl<BenchTool>(join(folder, 'corpus.jsonl'));
}

/** The queries of a retrieval folder. */
export function readQueries(folder: string): BenchQuery[] {
  return readJsonl<BenchQuery>(join(folder, 'queries.jsonl'));
}

/** A benchmark tool as a search document. */
export function toSearchDocument(tool: BenchTool): SearchDocument {
  const properties = tool.inputSchema?.properties ?? {};
  return {
    id: tool.id,
    server: tool.server ?? '',
    name: tool.name,
    description: tool.description ?? '',
    parameters: Object.entries(properties).map(([name, schema]) => searchParameter(name, schema)),
  };
}

/** Groups documents by server, as the index takes them. */
export function byServer(documents: readonly SearchDocument[]): Map<string, SearchDocument[]> {
  const groups = new Map<string, SearchDocument[]>();
  for (const doc of documents) {
    const list = groups.get(doc.server) ?? [];
    list.push(doc);
    groups.set(doc.server, list);
  }
  return groups;
}

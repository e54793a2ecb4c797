import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getEncoding } from 'js-tiktoken';
import { createContext, type AgentContext } from '@mcp-agent/core';
import { BYTES_PER_TOKEN, estimateTokens } from '@mcp-agent/execution';
import { ConnectionPool } from '@mcp-agent/registry';
import { createTestRegistry } from '@mcp-agent/registry/testing';
import { Dispatcher } from '@mcp-agent/actions';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const server = (name: string) =>
  fileURLToPath(
    new URL(`../../node_modules/@modelcontextprotocol/${name}/dist/index.js`, import.meta.url),
  );
const BUDGETS = [2_000, 4_000, 8_000, 16_000, 25_000];

interface Sample {
  readonly tool: string;
  readonly bytes: number;
  readonly tokens: number;
  readonly estimated: number;
}

/**
 * `pnpm bench result-sizes`: what real servers from npm (filesystem over this repository's
 * sources, memory with graphs of 2 to 200 entities, everything) return to a model, uncut, in
 * o200k tokens and in the envelope's estimate (UTF-8 bytes / 3), and how many results each
 * budget would keep whole. The envelope's default budget is sized from these figures.
 */
export async function runResultSizesBenchmark(): Promise<Record<string, unknown>> {
  const encoding = getEncoding('o200k_base');
  const registry = await createTestRegistry();
  const pool = new ConnectionPool(registry, { pingIntervalMs: 0 });
  const ctx = createContext({ userId: 'bench' });
  const memoryDir = mkdtempSync(join(tmpdir(), 'mcp-result-sizes-'));
  const samples: Sample[] = [];
  try {
    for (const [id, name, args, env] of [
      ['filesystem', 'server-filesystem', [repo], {}],
      ['memory', 'server-memory', [], { MEMORY_FILE_PATH: join(memoryDir, 'memory.jsonl') }],
      ['everything', 'server-everything', ['stdio'], {}],
    ] as const) {
      await registry.addServer(ctx, {
        id,
        transport: 'stdio',
        command: process.execPath,
        args: [server(name), ...args],
        env,
      });
    }
    await pool.waitForReady(ctx, ['filesystem', 'memory', 'everything']);
    // Nothing is cut: the figures are of whole results as the model would see them.
    const dispatcher = new Dispatcher({ registry, pool, envelope: { maxTokens: 100_000_000 } });
    const measure = async (tool: string, args: Record<string, unknown>) => {
      const response = await dispatcher.dispatchTool(ctx, tool, args);
      if (!response.ok) throw new Error(`${tool}: ${response.error.message}`);
      const json = JSON.stringify(response.data);
      samples.push({
        tool,
        bytes: Buffer.byteLength(json, 'utf8'),
        tokens: encoding.encode(json).length,
        estimated: estimateTokens(json),
      });
    };
    await measureFilesystem(measure);
    await measureMemory(ctx, dispatcher, measure);
    for (const [tool, args] of [
      ['echo', { message: 'hello from the benchmark' }],
      ['get-sum', { a: 2, b: 3 }],
      ['get-structured-content', { location: 'New York' }],
      ['get-annotated-message', { messageType: 'success', includeImage: true }],
      ['get-tiny-image', {}],
      ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }],
      ['get-resource-links', { count: 5 }],
    ] as const) {
      await measure(`everything.${tool}`, args);
    }
  } finally {
    await pool.close();
    await registry.close();
    rmSync(memoryDir, { recursive: true, force: true });
  }
  return report(samples);
}

type Measure = (tool: string, args: Record<string, unknown>) => Promise<void>;

async function measureFilesystem(measure: Measure): Promise<void> {
  const files: string[] = [];
  const directories: string[] = [];
  const walk = (dir: string) => {
    directories.push(dir);
    for (const name of readdirSync(dir)) {
      if (['node_modules', 'dist', '.git', '.toolchain'].includes(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|md|json|mjs)$/.test(name)) files.push(path);
    }
  };
  // The workspace's members: the packages, the apps and the benchmarks (which were inside the
  // packages until they moved), so the files read are the same as before the move.
  const members = [
    ...['packages', 'apps'].flatMap((top) =>
      readdirSync(join(repo, top)).map((name) => join(repo, top, name)),
    ),
    join(repo, 'benchmarks'),
  ];
  for (const top of ['packages', 'apps', 'benchmarks']) walk(join(repo, top));
  for (const path of files) await measure('filesystem.read_text_file', { path });
  for (const path of directories) await measure('filesystem.list_directory', { path });
  // A member without src/ (the dictionary data) has no tree to show.
  for (const member of members)
    if (existsSync(join(member, 'src')))
      await measure('filesystem.directory_tree', { path: join(member, 'src') });
  await measure('filesystem.search_files', { path: repo, pattern: '**/*.test.ts' });
  for (const path of files.slice(0, 20)) await measure('filesystem.get_file_info', { path });
}

async function measureMemory(ctx: AgentContext, dispatcher: Dispatcher, measure: Measure) {
  let made = 0;
  for (const size of [2, 10, 50, 200]) {
    const entities = Array.from({ length: size - made }, (_, i) => ({
      name: `Person ${made + i}`,
      entityType: 'person',
      observations: [
        `Works at Acme Corp as engineer number ${made + i}`,
        'Prefers morning meetings',
        'Speaks English and German',
      ],
    }));
    await dispatcher.dispatchTool(ctx, 'memory.create_entities', { entities });
    await dispatcher.dispatchTool(ctx, 'memory.create_relations', {
      relations: entities.slice(1).map((entity, i) => ({
        from: entity.name,
        to: entities[i]?.name,
        relationType: 'works_with',
      })),
    });
    made = size;
    await measure('memory.read_graph', {});
    await measure('memory.search_nodes', { query: 'Acme' });
    await measure('memory.open_nodes', { names: ['Person 0', 'Person 1'] });
  }
}

function report(samples: readonly Sample[]): Record<string, unknown> {
  const tools: Record<string, unknown> = {};
  for (const tool of [...new Set(samples.map((sample) => sample.tool))]) {
    const mine = samples.filter((sample) => sample.tool === tool);
    const tokens = mine.map((sample) => sample.tokens).sort((a, b) => a - b);
    tools[tool] = {
      results: mine.length,
      o200k_tokens: { p50: quantile(tokens, 0.5), p90: quantile(tokens, 0.9), max: tokens.at(-1) },
      bytes_per_token: round2(sum(mine, 'bytes') / sum(mine, 'tokens')),
    };
  }
  const all = samples.map((sample) => sample.tokens).sort((a, b) => a - b);
  return {
    benchmark: 'result-sizes',
    tokenizer: 'o200k_base (js-tiktoken 1.0.21)',
    results: samples.length,
    o200k_tokens: {
      p50: quantile(all, 0.5),
      p90: quantile(all, 0.9),
      p95: quantile(all, 0.95),
      p99: quantile(all, 0.99),
      max: all.at(-1),
    },
    bytes_per_token: round2(sum(samples, 'bytes') / sum(samples, 'tokens')),
    estimate_over_o200k: round2(sum(samples, 'estimated') / sum(samples, 'tokens')),
    estimate_under_o200k: samples.filter((sample) => sample.estimated < sample.tokens).length,
    largest_underestimated_o200k: Math.max(
      0,
      ...samples.filter((sample) => sample.estimated < sample.tokens).map((s) => s.tokens),
    ),
    estimate_bytes_per_token: BYTES_PER_TOKEN,
    whole_within_budget: Object.fromEntries(
      BUDGETS.map((budget) => [
        budget,
        round2(samples.filter((sample) => sample.estimated <= budget).length / samples.length),
      ]),
    ),
    tools,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function sum(samples: readonly Sample[], key: 'bytes' | 'tokens' | 'estimated'): number {
  return samples.reduce((total, sample) => total + sample[key], 0);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

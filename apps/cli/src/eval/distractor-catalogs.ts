// The recorded catalogs the suite's scale variant connects as distractors: real servers' tool
// lists from the project's benchmark data (../shared/bench/catalogs, beside the repository),
// read in place at run time, never copied into the repository.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@mcp-agent/core';

/** One recorded tool, as a server's tools/list gave it. */
export interface RecordedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

/** One recorded server: the name the catalog gives it and its tools in their order. */
export interface RecordedServer {
  /** The catalog's own name for it (an npm package, a product name, …). */
  readonly name: string;
  /** The catalog folder it came from. */
  readonly catalog: string;
  readonly tools: readonly RecordedTool[];
}

/**
 * The catalogs, in this order: real servers' tools with their schemas, then a registry's tools
 * with names and descriptions only (each given an empty-object schema, as a server without
 * parameters declares it).
 */
export const DISTRACTOR_CATALOGS = ['real-mcp-tools', 'toolsdk-distractors'] as const;

/**
 * The benchmark data folder: `MCP_AGENT_BENCH_DIR` when set (a checkout elsewhere, such as a
 * git worktree), else `../shared/bench` beside the repository's root.
 */
export function benchDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.MCP_AGENT_BENCH_DIR;
  if (given !== undefined && given !== '') return resolve(given);
  // src/eval and dist/eval are four levels below the repository's root.
  return fileURLToPath(new URL('../../../../../shared/bench/', import.meta.url));
}

/**
 * Every recorded server of the distractor catalogs, in file order.
 * @throws ConfigError naming the folder when a catalog is missing or a line is not a tool.
 */
export function readDistractorCatalogs(dir: string = benchDataDir()): RecordedServer[] {
  const servers: RecordedServer[] = [];
  for (const catalog of DISTRACTOR_CATALOGS) {
    const file = join(dir, 'catalogs', catalog, 'corpus.jsonl');
    if (!existsSync(file))
      throw new ConfigError(
        `The task suite's scale variant replays the recorded catalogs in ${join(dir, 'catalogs')}, and ${file} is missing. Put the project's benchmark data at ${dir} (../shared/bench beside the repository), or set MCP_AGENT_BENCH_DIR to the folder that holds catalogs/, or run the small size only (--size small).`,
      );
    const byServer = new Map<string, RecordedTool[]>();
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line.trim() === '') return;
        const tool = parseTool(line, `${file}:${index + 1}`);
        const list = byServer.get(tool.server) ?? [];
        list.push(tool.tool);
        byServer.set(tool.server, list);
      });
    for (const [name, tools] of byServer) servers.push({ name, catalog, tools });
  }
  return servers;
}

function parseTool(line: string, where: string): { server: string; tool: RecordedTool } {
  let row: Record<string, unknown>;
  try {
    row = JSON.parse(line) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`${where} is not JSON (${(error as Error).message}).`);
  }
  const { server, name, description, inputSchema, outputSchema, annotations } = row;
  if (typeof server !== 'string' || typeof name !== 'string' || server === '' || name === '')
    throw new ConfigError(`${where} has no "server" and "name" strings: not a catalog tool.`);
  const object = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const output = object(outputSchema);
  const notes = object(annotations);
  return {
    server,
    tool: {
      name,
      ...(typeof description === 'string' && description !== '' ? { description } : {}),
      inputSchema: object(inputSchema) ?? { type: 'object' },
      ...(output === undefined ? {} : { outputSchema: output }),
      ...(notes === undefined ? {} : { annotations: notes }),
    },
  };
}

/**
 * The recorded servers to connect beside servers already connected: a recording of a connected
 * server (half or more of its tool names, and at least two, are one connected server's) is left
 * out, since a second copy of a real server is not a distractor but a trap whose calls fail.
 */
export function distractorsBeside(
  recorded: readonly RecordedServer[],
  connected: readonly (readonly string[])[],
): RecordedServer[] {
  const sets = connected.map((names) => new Set(names));
  return recorded.filter((server) => {
    const names = server.tools.map((t) => t.name);
    return !sets.some((set) => {
      const shared = names.filter((n) => set.has(n)).length;
      return shared >= 2 && shared * 2 >= names.length;
    });
  });
}

/** A server id for each recorded server (lowercase, `-` for other characters), none in `taken`. */
export function distractorIds(
  servers: readonly RecordedServer[],
  taken: readonly string[],
): string[] {
  const used = new Set(taken);
  return servers.map((server) => {
    const base =
      server.name
        .toLowerCase()
        .replace(/[^a-z0-9_-]+/g, '-')
        .replace(/^[^a-z0-9]+|-+$/g, '')
        .slice(0, 56) || 'server';
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}-${i}`;
    used.add(id);
    return id;
  });
}

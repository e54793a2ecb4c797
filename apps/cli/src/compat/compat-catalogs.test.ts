import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compatServers, compatWorld, ownTools, versionOf } from './compat-test-helpers.js';
import { sweepServers } from './compat-sweep-test-helpers.js';

// The recorded catalogs `pnpm bench reachability` searches (packages/knowledge/bench-data): every
// tool the sixteen servers of the compatibility suite list, as each lists it itself over its own
// stdio. This test checks the recording against what the installed pinned packages serve, so a
// version bump that changes a tool cannot leave the bench measuring an old catalog; with
// MCP_AGENT_WRITE_CATALOGS=1 it writes the recording instead.
const world = compatWorld('mcp-compat-catalogs-');
const servers = { ...compatServers(world), ...sweepServers(world) };
const folder = new URL(
  '../../../../packages/knowledge/bench-data/compat-servers/',
  import.meta.url,
);
const corpusFile = fileURLToPath(new URL('corpus.jsonl', folder));
const packagesFile = fileURLToPath(new URL('packages.json', folder));

afterAll(() => rmSync(world.root, { recursive: true, force: true }));

/** One line of the recording: the shared bench corpus format (`../shared/bench/README.md`). */
interface CatalogLine {
  readonly id: string;
  readonly server: string;
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: unknown;
}

// The world's temp folder appears in no tool text today; were it to, it is written as a stand-in
// so the recording does not change from one run to the next.
function withoutWorld(text: string): string {
  return text.split(world.root).join('<world>');
}

async function served(): Promise<{ lines: CatalogLine[]; packages: object[] }> {
  const lines: CatalogLine[] = [];
  const packages: object[] = [];
  for (const server of Object.values(servers)) {
    const tools = await ownTools(server);
    packages.push({
      server: server.id,
      package: server.packageName,
      version: versionOf(server.packageName),
      tools: tools.length,
    });
    for (const tool of tools)
      lines.push(
        JSON.parse(
          withoutWorld(
            JSON.stringify({
              id: `${server.id}.${tool.name}`,
              server: server.id,
              name: tool.name,
              description: tool.description ?? '',
              inputSchema: tool.inputSchema,
            }),
          ),
        ) as CatalogLine,
      );
  }
  return { lines, packages };
}

describe('the recorded catalogs of the compatibility suite', () => {
  it('are what the pinned packages serve over tools/list', { timeout: 180_000 }, async () => {
    const { lines, packages } = await served();
    expect(lines.length).toBeGreaterThan(100);
    if (process.env.MCP_AGENT_WRITE_CATALOGS === '1') {
      writeFileSync(corpusFile, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
      writeFileSync(packagesFile, JSON.stringify(packages, null, 2) + '\n');
    }
    expect(existsSync(corpusFile), 'run with MCP_AGENT_WRITE_CATALOGS=1 to record').toBe(true);
    const recorded = readFileSync(corpusFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as CatalogLine);
    expect(recorded).toEqual(lines);
    expect(JSON.parse(readFileSync(packagesFile, 'utf8'))).toEqual(packages);
  });
});

// What the compatibility suite shares: the real npm MCP servers it runs (pinned devDependencies
// of this package), the offline data they work on (a temp folder, a git repository, a SQLite
// file, a PDF written here), each server's own tool list read over its own stdio, and the
// required fields of a JSON Schema at every depth, to check the deep view against.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { JsonObject } from '@mcp-agent/core';
import { COMMITS, PDF_PAGES, PEOPLE } from '../eval/eval-world.js';
import { minimalPdf, minimalXlsx } from './document-test-helpers.js';

// Other suites took the PDF writer from here before it moved beside the workbook writer.
export { minimalPdf } from './document-test-helpers.js';

/** One real server of the suite, as `servers add` takes it. */
export interface CompatServer {
  /** The server id given to `servers add`. */
  readonly id: string;
  /** Its npm package (a pinned devDependency of @mcp-agent/cli). */
  readonly packageName: string;
  /** The package's bin script, run with this Node. */
  readonly entry: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** The bin script of an installed package of this app (read from its package.json). */
export function binOf(packageName: string): string {
  const root = fileURLToPath(new URL(`../../node_modules/${packageName}/`, import.meta.url));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${packageName} has no bin`);
  return join(root, bin);
}

/** A server of the suite: the bin of `packageName`, run with this Node, `args` and `env`. */
export function compatServer(
  id: string,
  packageName: string,
  args: string[] = [],
  env: Record<string, string> = {},
): CompatServer {
  return { id, packageName, entry: binOf(packageName), args, env };
}

/** The installed version of a package of this app. */
export function versionOf(packageName: string): string {
  const file = fileURLToPath(
    new URL(`../../node_modules/${packageName}/package.json`, import.meta.url),
  );
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The offline data the servers work on, in one temp folder. */
export interface CompatWorld {
  readonly root: string;
  /** The folder the filesystem server may use (the PDF is in it too). */
  readonly files: string;
  /** A git repository with three commits. */
  readonly repo: string;
  /** A SQLite file with a three-row `people` table. */
  readonly database: string;
  /** A two-page PDF written by {@link minimalPdf}. */
  readonly pdf: string;
  /** The memory server's graph file. */
  readonly memory: string;
  /** A folder with an ESLint config and {@link LINTED_FILE}, which breaks one of its rules. */
  readonly lint: string;
  /** An Excel workbook of one sheet, {@link SHEET}, holding {@link PEOPLE} under a header row. */
  readonly workbook: string;
  /** A folder of Markdown notes, named with a capital letter as a user's notes folder often is. */
  readonly notes: string;
  /** A home folder for servers that keep their settings there (telemetry off, set here). */
  readonly home: string;
}

/** The file in the lint folder: one unused variable, against the config's `no-unused-vars`. */
export const LINTED_FILE = 'unused.js';

/** The name of the workbook's sheet. */
export const SHEET = 'People';

// The people table, the repository's commit subjects and the PDF's pages are the task suite's,
// so both suites' servers read the same data.
export { COMMITS, PDF_PAGES, PEOPLE };

/** Builds the offline data in a fresh temp folder. */
export function compatWorld(prefix: string): CompatWorld {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const files = join(root, 'files');
  const repo = join(root, 'repo');
  mkdirSync(files);
  mkdirSync(repo);
  writeFileSync(join(files, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  const pdf = join(files, 'report.pdf');
  writeFileSync(pdf, minimalPdf(PDF_PAGES.map((page) => [...page])));
  const lint = join(root, 'lint');
  mkdirSync(lint);
  writeFileSync(
    join(lint, 'eslint.config.mjs'),
    `export default [{ rules: { 'no-unused-vars': 'error' } }];\n`,
  );
  writeFileSync(join(lint, LINTED_FILE), 'const unused = 1;\n');
  const workbook = join(files, 'people.xlsx');
  const rows = PEOPLE.map((p) => [String(p.id), p.name, p.role]);
  writeFileSync(workbook, minimalXlsx(SHEET, [['id', 'name', 'role'], ...rows]));
  const notes = join(root, 'Notes');
  mkdirSync(notes);
  writeFileSync(join(notes, 'report.md'), '# Quarterly report\n\nRevenue rose 12 percent.\n');
  const home = join(root, 'home');
  // Desktop Commander reads its settings here; without them it turns telemetry on.
  mkdirSync(join(home, '.claude-server-commander'), { recursive: true });
  writeFileSync(
    join(home, '.claude-server-commander', 'config.json'),
    JSON.stringify({ telemetryEnabled: false, allowedDirectories: [root], blockedCommands: [] }),
  );
  const database = join(root, 'people.db');
  const db = new DatabaseSync(database);
  db.exec('CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO people (id, name, role) VALUES (?, ?, ?)');
  for (const person of PEOPLE) insert.run(person.id, person.name, person.role);
  db.close();
  const git = (...args: string[]) => {
    const result = spawnSync('git', args, {
      cwd: repo,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: root,
        GIT_AUTHOR_NAME: 'Compat Suite',
        GIT_AUTHOR_EMAIL: 'compat@example.com',
        GIT_COMMITTER_NAME: 'Compat Suite',
        GIT_COMMITTER_EMAIL: 'compat@example.com',
      },
    });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  };
  git('init', '--quiet', '--initial-branch=main');
  COMMITS.forEach((subject, i) => {
    writeFileSync(join(repo, 'README.md'), `# Compat\n\n${COMMITS.slice(0, i + 1).join('\n')}\n`);
    git('add', 'README.md');
    git('commit', '--quiet', '-m', subject);
  });
  return {
    ...{ root, files, repo, database, pdf, memory: join(root, 'memory.jsonl') },
    ...{ lint, workbook, notes, home },
  };
}

/** The suite's servers over `world`'s data. */
export function compatServers(world: CompatWorld) {
  return {
    everything: compatServer('everything', '@modelcontextprotocol/server-everything', ['stdio']),
    memory: compatServer('memory', '@modelcontextprotocol/server-memory', [], {
      MEMORY_FILE_PATH: world.memory,
    }),
    files: compatServer('files', '@modelcontextprotocol/server-filesystem', [world.files]),
    thinking: compatServer('thinking', '@modelcontextprotocol/server-sequential-thinking', [], {
      DISABLE_THOUGHT_LOGGING: 'true',
    }),
    sqlite: compatServer('sqlite', '@bytebase/dbhub', [
      '--transport',
      'stdio',
      '--dsn',
      `sqlite://${world.database}`,
    ]),
    git: compatServer('git', '@cyanheads/git-mcp-server', [], {
      MCP_TRANSPORT_TYPE: 'stdio',
      MCP_LOG_LEVEL: 'error',
      GIT_BASE_DIR: world.root,
    }),
    pdf: compatServer('pdf', '@sylphx/pdf-reader-mcp'),
    time: compatServer('time', 'time-mcp'),
  };
}

/** The `servers add` arguments of a server. */
export function addArgs(server: CompatServer): string[] {
  return [
    'servers',
    'add',
    server.id,
    '--command',
    process.execPath,
    ...[server.entry, ...server.args].flatMap((arg) => ['--arg', arg]),
    ...Object.entries(server.env).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
  ];
}

// tools/list as the server sent it, as the engine reads it (packages/registry list-all-tools):
// the SDK's own result schema rejects a whole list for one tool it finds malformed.
const LenientToolList = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** The server's own tool list, read over its own stdio with the MCP SDK (not through mcp-agent). */
export function ownTools(server: CompatServer): Promise<Tool[]> {
  return direct(server, async (client) => {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        LenientToolList,
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools as Tool[];
  });
}

/** What the server itself answers to one tool call, over its own stdio (not through mcp-agent). */
export function ownCall(
  server: CompatServer,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return direct(
    server,
    async (client) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  );
}

async function direct<T>(server: CompatServer, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'compat-suite', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [server.entry, ...server.args],
      env: { PATH: process.env.PATH ?? '', ...server.env },
      stderr: 'ignore',
    }),
  );
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

/**
 * The required fields of a schema at every depth, each as the chain of property names from the
 * root (`entities.name`; `*` for any key of a map), following local `$ref`s (a cycle stops the
 * walk), unions, intersections, array items and tuples.
 */
export function requiredChains(schema: unknown): Set<string> {
  const root = asObject(schema) ?? {};
  const chains = new Set<string>();
  const walk = (node: unknown, chain: string, ancestors: Set<object>) => {
    const here = asObject(node);
    if (here === undefined || ancestors.has(here)) return;
    const seen = new Set([...ancestors, here]);
    if (typeof here.$ref === 'string') walk(resolveRef(root, here.$ref), chain, seen);
    if (Array.isArray(here.required))
      for (const name of here.required) if (typeof name === 'string') chains.add(dot(chain, name));
    for (const [name, child] of Object.entries(asObject(here.properties) ?? {}))
      walk(child, dot(chain, name), seen);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
      if (Array.isArray(here[key])) for (const child of here[key]) walk(child, chain, seen);
    if (Array.isArray(here.items)) for (const child of here.items) walk(child, chain, seen);
    else walk(here.items, chain, seen);
    walk(here.additionalProperties, dot(chain, '*'), seen);
    for (const child of Object.values(asObject(here.patternProperties) ?? {}))
      walk(child, dot(chain, '*'), seen);
  };
  walk(root, '', new Set());
  return chains;
}

/** One row of a deep view's parameter list (the fields this suite reads). */
interface ViewRow {
  readonly path: string;
  readonly type: string;
  readonly required?: boolean;
}

/** A deep view as `tools describe --json` prints it (the fields this suite reads). */
export interface DescribedTool {
  readonly tool_id: string;
  readonly description: string;
  readonly call_signature: string;
  readonly parameters: readonly ViewRow[];
  readonly types?: readonly { name: string; parameters: readonly ViewRow[] }[];
  readonly notes?: readonly string[];
}

/** The required fields a deep view shows as required rows, as chains of property names. */
export function shownRequiredChains(view: DescribedTool): Set<string> {
  const types = new Map((view.types ?? []).map((t) => [t.name, t]));
  const chains = new Set<string>();
  const expand = (rows: readonly ViewRow[], base: string, named: Set<string>) => {
    for (const row of rows) {
      const chain = dot(base, propertyNames(row.path));
      if (row.required === true) chains.add(chain);
      for (const name of row.type.match(/[A-Za-z_$][\w$]*/g) ?? []) {
        const type = types.get(name);
        if (type !== undefined && !named.has(name))
          expand(type.parameters, chain, new Set([...named, name]));
      }
    }
  };
  const rootType = types.get(view.call_signature.slice(view.tool_id.length + 1, -1));
  if (rootType !== undefined) expand(rootType.parameters, '', new Set([rootType.name]));
  expand(view.parameters, '', new Set());
  return chains;
}

/** The JSON of the first text block of an MCP tool result (a meta-tool's observation). */
export function observation(result: unknown): JsonObject {
  const block = (result as { content: { type: string; text?: string }[] }).content[0];
  if (block?.type !== 'text' || block.text === undefined) throw new Error('no text block');
  return JSON.parse(block.text) as JsonObject;
}

/** The text blocks of a tool result, joined as the envelope joins them for a model. */
export function joinedText(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// `#/$defs/a/properties/b` in `root`, or nothing for a reference that is not local.
function resolveRef(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    node = asObject(node)?.[key];
  }
  return node;
}

function dot(chain: string, name: string): string {
  return chain === '' ? name : name === '' ? chain : `${chain}.${name}`;
}

// `entities[](option 2).name` → `entities.name`; `["a.b"].c` → `a.b.c`.
function propertyNames(path: string): string {
  const names: string[] = [];
  const pattern = /\[("(?:[^"\\]|\\.)*")\]|\[\d*\]|\((?:option|part) \d+\)|\.?([^.[(]+)/g;
  for (const match of path.matchAll(pattern)) {
    if (match[1] !== undefined) names.push(JSON.parse(match[1]) as string);
    else if (match[2] !== undefined) names.push(match[2]);
  }
  return names.join('.');
}

import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { cliHome, type CliRun } from '../cli-test-helpers.js';
import {
  addArgs,
  COMMITS,
  compatServers,
  compatWorld,
  ownTools,
  PDF_PAGES,
  PEOPLE,
  requiredChains,
  shownRequiredChains,
  versionOf,
  type DescribedTool,
} from './compat-test-helpers.js';

// The compatibility suite: real MCP servers from npm (pinned devDependencies of this app), run
// offline over stdio, tried through the built binary as a new user would — added, ready, found
// by a natural query, described with every required field, called, and read whole from a script.
const world = compatWorld('mcp-compat-data-');
const servers = compatServers(world);
const { home, run } = cliHome('mcp-compat-home-');
const own = new Map<string, Tool[]>();

/** Runs the binary and parses what it printed as JSON; fails with its stderr when it failed. */
function runJson(...args: string[]): unknown {
  const result: CliRun = run(args);
  if (result.code !== 0)
    throw new Error(`mcp-agent ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as unknown;
}

/** `mcp-agent tools call <id> --args <json>`, parsed. */
const call = (toolId: string, args: object) =>
  runJson('tools', 'call', toolId, '--args', JSON.stringify(args));

/** `mcp-agent exec <file>` of a one-off script, parsed. */
function exec(name: string, code: string): unknown {
  const file = join(home, name);
  writeFileSync(file, code);
  return runJson('exec', file);
}

beforeAll(async () => {
  for (const server of Object.values(servers)) {
    expect(run(addArgs(server))).toMatchObject({
      code: 0,
      stdout: `added ${server.id} (stdio) for cli-user\n`,
    });
  }
  // Each server's own answer to tools/list, read over its own stdio, to check the engine against.
  for (const server of Object.values(servers)) own.set(server.id, await ownTools(server));
  // Search and describe read the catalogs stored when servers were first connected (by status).
  expect(run(['servers', 'status']).code).toBe(0);
}, 240_000);

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(world.root, { recursive: true, force: true });
});

// Each case starts the binary (the whole stack) and real servers: seconds each, and far more on
// a loaded 2-core machine, hence the generous timeouts.
describe(
  'compatibility with real npm MCP servers, through the built binary',
  { timeout: 180_000 },
  () => {
    it('servers status: every server is ready with the tool count it lists itself', () => {
      const status = runJson('--json', 'servers', 'status') as {
        serverId: string;
        status: string;
        toolCount: number;
      }[];
      const shown = Object.fromEntries(status.map((s) => [s.serverId, [s.status, s.toolCount]]));
      const expected = Object.fromEntries(
        Object.values(servers).map((s) => [s.id, ['ready', own.get(s.id)?.length]]),
      );
      expect(shown).toEqual(expected);
      // The figures of the report: which package, which version, how many tools.
      console.info(
        Object.values(servers)
          .map(
            (s) => `${s.packageName}@${versionOf(s.packageName)}: ${own.get(s.id)?.length} tools`,
          )
          .join('\n'),
      );
    });

    it('tools search: a plain-words query per server finds its tool in the top three', () => {
      const expected = {
        'create entities in the knowledge graph': 'memory.create_entities',
        'edit a file': 'files.edit_file',
        'add two numbers': 'everything.get-sum',
        'think through a problem step by step': 'thinking.sequentialthinking',
        'run a SQL query': 'sqlite.execute_sql',
        'show the commit history': 'git.git_log',
        'read the text of a PDF': 'pdf.read_pdf',
        'convert a time between timezones': 'time.convert_time',
      };
      // One invocation, several queries: each answered on its own, in order.
      const answer = runJson('--json', 'tools', 'search', ...Object.keys(expected)) as {
        queries: { matches: { tool_id: string }[] }[];
      };
      const found = Object.fromEntries(
        Object.entries(expected).map(([query, toolId], i) => [
          query,
          answer.queries[i]?.matches.slice(0, 3).some((m) => m.tool_id === toolId)
            ? toolId
            : answer.queries[i]?.matches.slice(0, 3).map((m) => m.tool_id),
        ]),
      );
      expect(found).toEqual(expected);
    });

    it('tools search: a request in other words than the tool name finds it in the top three, never "no good match" (#29)', () => {
      // Written from what each server's documentation says its tool does, avoiding the words of
      // the tool's own name: a user asks for the job, not for the identifier.
      const expected = {
        'record new people and organisations in the knowledge graph': 'memory.create_entities',
        'replace some lines of a text document and show the diff': 'files.edit_file',
        'add up two numbers': 'everything.get-sum',
        'reason through a hard problem, revising my thoughts as I go':
          'thinking.sequentialthinking',
        'query the rows of a database table': 'sqlite.execute_sql',
        'list the past commits made by one author': 'git.git_log',
        'extract the text and metadata from the pages of a document': 'pdf.read_pdf',
        'what hour is it in Tokyo when it is nine in London': 'time.convert_time',
      };
      const answer = runJson('--json', 'tools', 'search', ...Object.keys(expected)) as {
        queries: { matches: { tool_id: string }[]; no_good_match: boolean }[];
      };
      const found = Object.fromEntries(
        Object.entries(expected).map(([query, toolId], i) => {
          const asked = answer.queries[i];
          const top = asked?.matches.slice(0, 3).map((m) => m.tool_id) ?? [];
          return [query, asked?.no_good_match === false && top.includes(toolId) ? toolId : top];
        }),
      );
      expect(found).toEqual(expected);
    });

    it('tools describe shows every required field of every tool at every depth, and each description verbatim', () => {
      const ids = [...own].flatMap(([serverId, tools]) =>
        tools.map((t) => `${serverId}.${t.name}`),
      );
      const answer = runJson('--json', 'tools', 'describe', ...ids) as {
        tools: DescribedTool[];
        errors: unknown[];
      };
      expect(answer.errors).toEqual([]);
      const views = new Map(answer.tools.map((view) => [view.tool_id, view]));
      const missing: string[] = [];
      const changed: string[] = [];
      const required = new Map<string, number>();
      for (const [serverId, tools] of own) {
        for (const tool of tools) {
          const id = `${serverId}.${tool.name}`;
          const view = views.get(id);
          if (view === undefined) {
            missing.push(`${id}: not described`);
            continue;
          }
          const shown = shownRequiredChains(view);
          for (const chain of requiredChains(tool.inputSchema)) {
            required.set(serverId, (required.get(serverId) ?? 0) + 1);
            if (!shown.has(chain)) missing.push(`${id}: ${chain}`);
          }
          // Verbatim: the server's own characters, or (past the budget) a marked head of them.
          const description = tool.description ?? '';
          if (view.description !== description) {
            const cut = /… \[[\d,]+ more characters cut; [^\]]*\]$/.exec(view.description);
            if (cut === null || !description.startsWith(view.description.slice(0, cut.index)))
              changed.push(id);
          }
        }
      }
      expect(ids).toHaveLength(74);
      expect(missing).toEqual([]);
      expect(changed).toEqual([]);
      // Every server has required fields to check (nested ones among them: see the next case).
      expect([...required.keys()].sort()).toEqual(Object.keys(servers).sort());
    });

    it('nested fields are in the call signatures: memory, filesystem, PDF', () => {
      const answer = runJson(
        '--json',
        'tools',
        'describe',
        'memory.create_entities',
        'files.edit_file',
        'pdf.read_pdf',
      ) as { tools: DescribedTool[] };
      expect(answer.tools.map((t) => t.call_signature)).toEqual([
        'memory.create_entities({ entities: { name: string, entityType: string, observations: string[] }[] })',
        expect.stringContaining('edits: { oldText: string, newText: string }[]'),
        expect.stringContaining(
          'sources: { path?: string, url?: string, pages?: integer[] | string }[]',
        ),
      ]);
    });

    it('memory: calls and a script get whole data', () => {
      const entities = [
        {
          name: 'Ada',
          entityType: 'person',
          observations: ['first programmer', 'worked with Babbage'],
        },
        { name: 'Grace', entityType: 'person', observations: ['wrote the first compiler'] },
      ];
      call('memory.create_entities', { entities });
      expect(call('memory.read_graph', {})).toEqual({
        entities: entities.map((e) => expect.objectContaining(e)),
        relations: [],
      });
      expect(
        exec(
          'memory.js',
          `const g = await tools.memory.read_graph({}); return g.entities.map(e => e.observations.join('; '))`,
        ),
      ).toEqual(['first programmer; worked with Babbage', 'wrote the first compiler']);
    });

    it('filesystem: an edit with nested arguments, the file read back whole, and from a script', () => {
      const path = join(world.files, 'notes.txt');
      const edited = call('files.edit_file', {
        path,
        edits: [{ oldText: 'beta', newText: 'BETA' }],
      }) as { content: string };
      expect(edited.content).toMatch(/^-beta\n\+BETA$/m);
      expect(call('files.read_text_file', { path })).toEqual({ content: 'alpha\nBETA\ngamma\n' });
      expect(
        exec(
          'files.js',
          `const r = await tools.files.read_text_file({ path: ${JSON.stringify(path)} }); return r.content.split('\\n').filter(Boolean)`,
        ),
      ).toEqual(['alpha', 'BETA', 'gamma']);
    });

    it('everything: a text result and structured content, whole in a script', () => {
      expect(run(['tools', 'call', 'everything.get-sum', '--args', '{"a":2,"b":3}'])).toMatchObject(
        {
          code: 0,
          stdout: 'The sum of 2 and 3 is 5.\n',
        },
      );
      const weather = exec(
        'everything.js',
        `const w = await tools.everything['get-structured-content']({ location: 'Chicago' }); return [typeof w.temperature, typeof w.conditions, typeof w.humidity]`,
      );
      expect(weather).toEqual(['number', 'string', 'number']);
    });

    it('sequential thinking: a thought recorded, and two in one script keep their history', () => {
      expect(
        call('thinking.sequentialthinking', {
          thought: 'List what the report needs',
          thoughtNumber: 1,
          totalThoughts: 2,
          nextThoughtNeeded: true,
        }),
      ).toEqual({
        thoughtNumber: 1,
        totalThoughts: 2,
        nextThoughtNeeded: true,
        branches: [],
        thoughtHistoryLength: 1,
      });
      const history = exec(
        'thinking.js',
        `const think = (n) => tools.thinking.sequentialthinking({ thought: 'step ' + n, thoughtNumber: n, totalThoughts: 2, nextThoughtNeeded: n < 2 });
       await think(1); const last = await think(2); return [last.thoughtNumber, last.nextThoughtNeeded, last.thoughtHistoryLength]`,
      );
      expect(history).toEqual([2, false, 2]);
    });

    it('SQLite (dbhub): the three-row result whole, and from a script', () => {
      const result = call('sqlite.execute_sql', { sql: 'SELECT * FROM people ORDER BY id' }) as {
        success: boolean;
        data: { statements: { rows: unknown[]; count: number }[] };
      };
      expect(result.success).toBe(true);
      expect(result.data.statements[0]).toMatchObject({ rows: PEOPLE, count: 3 });
      expect(
        exec(
          'sqlite.js',
          `const r = await tools.sqlite.execute_sql({ sql: 'SELECT name, role FROM people ORDER BY id' }); return r.data.statements[0].rows.map(p => p.name + ' (' + p.role + ')')`,
        ),
      ).toEqual(PEOPLE.map((p) => `${p.name} (${p.role})`));
    });

    it('git on a temporary repository: the log whole, and the status from a script', () => {
      const log = call('git.git_log', { path: world.repo }) as {
        commits: { subject: string; author: string }[];
      };
      expect(log.commits.map((c) => c.subject)).toEqual([...COMMITS].reverse());
      expect(log.commits[0]?.author).toBe('Compat Suite');
      expect(
        exec(
          'git.js',
          `const s = await tools.git.git_status({ path: ${JSON.stringify(world.repo)} }); return [s.currentBranch, s.isClean]`,
        ),
      ).toEqual(['main', true]);
    });

    it('PDF reader: a generated two-page PDF read whole, and one page\u2019s text from a script', () => {
      const read = call('pdf.read_pdf', {
        sources: [{ path: world.pdf }],
        include_full_text: true,
      }) as [
        { results: { success: boolean; data: { num_pages: number; full_text: string } }[] },
        ...string[],
      ];
      expect(read[0].results[0]).toMatchObject({ success: true, data: { num_pages: 2 } });
      for (const line of PDF_PAGES.flat())
        expect(read[0].results[0]?.data.full_text).toContain(line);
      expect(read.slice(1)).toEqual(
        PDF_PAGES.map((lines, i) => `[Page ${i + 1}]\n${lines.join('\n')}`),
      );
      expect(
        exec(
          'pdf.js',
          `const r = await tools.pdf.read_pdf({ sources: [{ path: ${JSON.stringify(world.pdf)}, pages: [2] }] }); return r[0].results[0].data.page_texts`,
        ),
      ).toEqual([{ page: 2, text: expect.stringContaining('Hiring three engineers') }]);
    });

    it('time: a conversion whole, and from a script', () => {
      const args = {
        sourceTimezone: 'UTC',
        targetTimezone: 'Asia/Tokyo',
        time: '2026-01-01 12:00:00',
      };
      const converted = run(['tools', 'call', 'time.convert_time', '--args', JSON.stringify(args)]);
      expect(converted.code).toBe(0);
      expect(converted.stdout).toContain('the time in Asia/Tokyo is 2026-01-01 21:00:00');
      expect(
        exec(
          'time.js',
          `return await tools.time.convert_time(${JSON.stringify({ ...args, targetTimezone: 'Europe/Paris' })})`,
        ),
      ).toMatch(/the time in Europe\/Paris is 2026-01-01 13:00:00/);
    });
  },
);

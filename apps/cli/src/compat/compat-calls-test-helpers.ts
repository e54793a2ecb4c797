import { join } from 'node:path';
import { expect } from 'vitest';
import type { CliRun } from '../cli-test-helpers.js';
import { COMMITS, PDF_PAGES, PEOPLE, type CompatWorld } from './compat-test-helpers.js';

// The real calls of the suite's first servers, each on `world`'s data: a call's answer read
// whole, and the same tools from a script. compat-servers.test.ts runs them in its matrix.

/** The CLI as the checks use it: raw runs, `tools call` parsed, and `exec` of a script parsed. */
export interface CompatCli {
  readonly run: (args: string[]) => CliRun;
  readonly call: (toolId: string, args: object) => unknown;
  readonly exec: (name: string, code: string) => unknown;
}

/** One server's real-call check: its test's title, the server, and the check. */
export interface ServerCall {
  readonly title: string;
  readonly server: string;
  readonly check: () => void;
}

/** The real-call check of each of the first servers, in the suite's order. */
export function serverCalls(world: CompatWorld, { run, call, exec }: CompatCli): ServerCall[] {
  return [
    {
      title: 'memory: calls and a script get whole data',
      server: 'memory',
      check: () => {
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
      },
    },
    {
      title:
        'filesystem: an edit with nested arguments, the file read back whole, and from a script',
      server: 'files',
      check: () => {
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
      },
    },
    {
      title: 'everything: a text result and structured content, whole in a script',
      server: 'everything',
      check: () => {
        expect(
          run(['tools', 'call', 'everything.get-sum', '--args', '{"a":2,"b":3}']),
        ).toMatchObject({
          code: 0,
          stdout: 'The sum of 2 and 3 is 5.\n',
        });
        const weather = exec(
          'everything.js',
          `const w = await tools.everything['get-structured-content']({ location: 'Chicago' }); return [typeof w.temperature, typeof w.conditions, typeof w.humidity]`,
        );
        expect(weather).toEqual(['number', 'string', 'number']);
      },
    },
    {
      title: 'sequential thinking: a thought recorded, and two in one script keep their history',
      server: 'thinking',
      check: () => {
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
      },
    },
    {
      title: 'SQLite (dbhub): the three-row result whole, and from a script',
      server: 'sqlite',
      check: () => {
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
      },
    },
    {
      title: 'git on a temporary repository: the log whole, and the status from a script',
      server: 'git',
      check: () => {
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
      },
    },
    {
      title:
        'PDF reader: a generated two-page PDF read whole, and one page\u2019s text from a script',
      server: 'pdf',
      check: () => {
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
      },
    },
    {
      title: 'time: a conversion whole, and from a script',
      server: 'time',
      check: () => {
        const args = {
          sourceTimezone: 'UTC',
          targetTimezone: 'Asia/Tokyo',
          time: '2026-01-01 12:00:00',
        };
        const converted = run([
          'tools',
          'call',
          'time.convert_time',
          '--args',
          JSON.stringify(args),
        ]);
        expect(converted.code).toBe(0);
        expect(converted.stdout).toContain('the time in Asia/Tokyo is 2026-01-01 21:00:00');
        expect(
          exec(
            'time.js',
            `return await tools.time.convert_time(${JSON.stringify({ ...args, targetTimezone: 'Europe/Paris' })})`,
          ),
        ).toMatch(/the time in Europe\/Paris is 2026-01-01 13:00:00/);
      },
    },
  ];
}

// The servers added to the suite after the sweep of issue 30: the four that failed a check there
// (Desktop Commander, ESLint, Excel, Code Runner) and four more that run offline with no keys.
// Kept apart from {@link compatServers}, whose eight other suites (cuts, tasks) start by name.
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CliRun } from '../cli-test-helpers.js';
import {
  compatServer,
  LINTED_FILE,
  PEOPLE,
  SHEET,
  type CompatWorld,
} from './compat-test-helpers.js';
import type { KnownFailure } from './compat-matrix-test-helpers.js';

/** The sweep's servers over `world`'s data. */
export function sweepServers(world: CompatWorld) {
  return {
    // Tests stay on loopback: its telemetry off by its own switch, its feature flags fetched from a
    // closed loopback port (it keeps its defaults when the fetch fails).
    desktop: compatServer('desktop', '@wonderwhy-er/desktop-commander', [], {
      HOME: world.home,
      DESKTOP_COMMANDER_DISABLE_TELEMETRY: '1',
      DC_FLAG_URL: 'http://127.0.0.1:9/flags.json',
    }),
    eslint: compatServer('eslint', '@eslint/mcp'),
    excel: compatServer('excel', '@negokaz/excel-mcp-server'),
    // It writes the code it runs to os.tmpdir(): the world's folder, removed with it.
    runner: compatServer('runner', 'mcp-server-code-runner', [], { TMPDIR: world.root }),
    calculator: compatServer('calculator', '@wrtnlabs/calculator-mcp'),
    tasks: compatServer('tasks', '@kazuph/mcp-taskmanager', [], {
      TASK_MANAGER_FILE_PATH: join(world.root, 'tasks.json'),
    }),
    commands: compatServer('commands', 'mcp-server-commands'),
    notes: compatServer('notes', 'mcp-obsidian', [world.notes]),
  };
}

/** One real call check of a sweep server: what it shows, and the check over the CLI's runner. */
export interface SweepCall {
  readonly title: string;
  readonly check: (run: (args: string[]) => CliRun) => void;
}

/** What `tools call <id> --args <json>` printed; fails with its stderr when it failed. */
function printed(run: (args: string[]) => CliRun, toolId: string, args: object): string {
  const result = run(['tools', 'call', toolId, '--args', JSON.stringify(args)]);
  if (result.code !== 0)
    throw new Error(`tools call ${toolId} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** A real call of each sweep server on `world`'s data, with what it must print. */
export function sweepCalls(
  world: CompatWorld,
): Record<keyof ReturnType<typeof sweepServers>, SweepCall> {
  return {
    desktop: {
      title: 'a folder listed',
      check: (run) => {
        const out = printed(run, 'desktop.list_directory', { path: world.lint });
        expect(out).toContain(LINTED_FILE);
        expect(out).toContain('eslint.config.mjs');
      },
    },
    eslint: {
      title: 'a file linted against its folder’s config',
      check: (run) => {
        const out = printed(run, 'eslint.lint-files', {
          filePaths: [join(world.lint, LINTED_FILE)],
        });
        expect(out).toContain('no-unused-vars');
        expect(out).toContain("'unused' is assigned a value but never used.");
      },
    },
    excel: {
      title: 'a generated workbook’s sheet read whole',
      check: (run) => {
        const out = printed(run, 'excel.excel_read_sheet', {
          fileAbsolutePath: world.workbook,
          sheetName: SHEET,
        });
        for (const person of PEOPLE)
          for (const value of Object.values(person)) expect(out).toContain(String(value));
      },
    },
    runner: {
      title: 'a JavaScript snippet run',
      check: (run) => {
        expect(
          printed(run, 'runner.run-code', { code: 'console.log(6 * 7)', languageId: 'javascript' }),
        ).toBe('42\n\n');
      },
    },
    calculator: {
      title: 'a product',
      check: (run) => {
        expect(printed(run, 'calculator.mul', { a: 6, b: 7 })).toContain(
          'The product of 6 and 7 is 42',
        );
      },
    },
    tasks: {
      title: 'a request planned, then listed by the next process',
      check: (run) => {
        printed(run, 'tasks.request_planning', {
          originalRequest: 'Write the quarterly report',
          tasks: [{ title: 'Gather the figures', description: 'Revenue and hiring' }],
        });
        expect(printed(run, 'tasks.list_requests', {})).toContain('Write the quarterly report');
      },
    },
    commands: {
      title: 'a shell command run',
      check: (run) => {
        expect(printed(run, 'commands.run_command', { command: 'echo hello' })).toContain('hello');
      },
    },
    notes: {
      title: 'notes searched',
      check: (run) => {
        expect(printed(run, 'notes.search_notes', { query: 'report' })).toContain('report.md');
      },
    },
  };
}

/**
 * The checks a server of the suite is known to fail, each with the error it must fail with and
 * the reason docs/compatibility.md shows. A listed check that starts passing fails the suite, so
 * this list stays true: unlist it then.
 */
export const KNOWN_FAILURES: readonly KnownFailure[] = [
  {
    server: 'eslint',
    check: 'search',
    error: /^"check JavaScript files for problems" found .*, not eslint\.lint-files$/,
    reason:
      'the request "check JavaScript files for problems" does not bring `lint-files` into the first three: its description ("Lint files using ESLint…") shares no word with it but "files", and the search does not relate checking code for problems to linting.',
  },
  {
    server: 'commands',
    check: 'search',
    error: /^"execute a shell command line" found .*, not commands\.run_command$/,
    reason:
      'the request "execute a shell command line" does not bring `run_command` ("Run a command on this linux machine") into the first three.',
  },
  {
    server: 'notes',
    check: 'call',
    error: /ENOENT: no such file or directory, scandir/,
    reason:
      'mcp-obsidian lowercases the vault path it is given (`path.normalize(p).toLowerCase()`), so a vault whose path has a capital letter (here `…/Notes`) is not found on a case-sensitive file system: every call fails with `ENOENT … scandir`.',
  },
];

// The compatibility matrix: each server of the suite × each check, filled in as the suite runs and
// written to docs/compatibility.md, so a user sees what works before trying a server. A failure
// is never hidden: a check listed as a known failure must still fail (with its stated cause) and
// shows ✗ with its reason; a listed failure that passes, or an unlisted one, fails the suite.
import { expect } from 'vitest';
import { versionOf, type CompatServer } from './compat-test-helpers.js';

/** The checks, in the matrix's column order, with the header each shows. */
export const CHECKS = {
  ready: 'Ready',
  search: 'Found by plain words',
  deepView: 'Every field in the deep view',
  call: 'Real call',
} as const;

export type CheckName = keyof typeof CHECKS;

/** A check a server is known to fail: the error it must fail with, and the reason shown. */
export interface KnownFailure {
  readonly server: string;
  readonly check: CheckName;
  /** Matched against the check's error message: the failure must be this one, not another. */
  readonly error: RegExp;
  readonly reason: string;
}

/** One server's resources as `mcp-agent resources list` lists them. */
export interface ResourceRow {
  /** The server's id in the suite. */
  readonly server: string;
  /** What it is: its npm package and version, or the fixture. */
  readonly source: string;
  /** How many resources it listed. */
  readonly resources: number;
  /** How many resource templates it listed. */
  readonly templates: number;
}

interface Cell {
  readonly ok: boolean;
  readonly reason?: string;
}

export class CompatMatrix {
  private readonly cells = new Map<string, Cell>();
  private resourceRows: readonly ResourceRow[] | undefined;

  constructor(
    private readonly servers: readonly CompatServer[],
    private readonly known: readonly KnownFailure[],
    /** Each server's own tool list (absent where it could not be read). */
    private readonly tools: ReadonlyMap<string, readonly unknown[]>,
  ) {}

  /**
   * Runs one check of one server and records it. Throws when the outcome is not the expected
   * one: an unlisted failure (its own error), or a listed one that passed or failed otherwise.
   */
  run(server: string, check: CheckName, body: () => void): void {
    const known = this.known.find((k) => k.server === server && k.check === check);
    let failure: Error | undefined;
    try {
      body();
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    if (failure === undefined) {
      this.cells.set(`${server} ${check}`, { ok: true });
      if (known !== undefined)
        throw new Error(`${server} ${check} passed but is listed as a known failure: unlist it`);
      return;
    }
    this.cells.set(`${server} ${check}`, { ok: false, reason: known?.reason });
    if (known === undefined) throw failure;
    if (!known.error.test(failure.message))
      throw new Error(`${server} ${check} failed otherwise than listed: ${failure.message}`);
  }

  /** Runs `body` as one check of every server, then fails with every unexpected outcome at once. */
  runEach(check: CheckName, body: (server: string) => void): void {
    const unexpected: string[] = [];
    for (const { id } of this.servers) {
      try {
        this.run(id, check, () => body(id));
      } catch (error) {
        unexpected.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    expect(unexpected).toEqual([]);
  }

  /** Records the servers that list resources or templates, for the matrix's resources section. */
  recordResources(rows: readonly ResourceRow[]): void {
    this.resourceRows = [...rows];
  }

  /** Every server × check recorded (a partial run, filtered by name, writes nothing). */
  complete(): boolean {
    return (
      this.resourceRows !== undefined &&
      this.servers.every((s) =>
        Object.keys(CHECKS).every((check) => this.cells.has(`${s.id} ${check}`)),
      )
    );
  }

  /** The matrix as Markdown: the same servers, versions and outcomes always give the same text. */
  render(): string {
    const checks = Object.keys(CHECKS) as CheckName[];
    const head = ['Server', 'Package', 'Version', 'Tools', ...checks.map((c) => CHECKS[c])];
    const rows = this.servers.map((s) => [
      s.id,
      `\`${s.packageName}\``,
      versionOf(s.packageName),
      String(this.tools.get(s.id)?.length ?? '—'),
      ...checks.map((c) => (this.cells.get(`${s.id} ${c}`)?.ok === true ? '✓' : '✗')),
    ]);
    const failures = this.servers.flatMap((s) =>
      checks.flatMap((c) => {
        const cell = this.cells.get(`${s.id} ${c}`);
        return cell?.ok === false
          ? [
              `- **${s.id}** (\`${s.packageName}\` ${versionOf(s.packageName)}), ${CHECKS[c]}: ${cell.reason ?? 'failed'}`,
            ]
          : [];
      }),
    );
    const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
    return [
      '# Compatibility with real MCP servers',
      '',
      '<!-- Written by apps/cli/src/compat/compat-servers.test.ts; do not edit by hand. Regenerate with',
      '     pnpm exec vitest run apps/cli/src/compat/compat-servers.test.ts -->',
      '',
      'Each server below is a real npm package at the version shown, run offline over stdio and tried',
      'through the built `mcp-agent` binary as a new user would try it:',
      '',
      '- **Ready**: `servers add`, then `servers status` shows it ready with the tool count it lists itself.',
      '- **Found by plain words**: `tools search` with a request in words of its documentation (not the',
      '  tool name) finds its tool among the first three.',
      '- **Every field in the deep view**: `tools describe` shows every required field of every tool at',
      '  every depth, and each description verbatim.',
      '- **Real call**: `tools call` (and for some, a script run by `exec`) returns the expected data whole.',
      '',
      line(head),
      line(head.map(() => '---')),
      ...rows.map(line),
      '',
      '## Known failures',
      '',
      ...(failures.length === 0 ? ['None.'] : failures),
      '',
      '## Resources',
      '',
      '`mcp-agent resources list` on every server of the suite: the ones that list resources or',
      'resource templates, with how many of each. A server that declares resources but answers -32601',
      '(Method not found) to the optional `resources/templates/list` keeps its resources (templates:',
      "none): the last row is such a server, built on the MCP SDK's low-level `Server` with no",
      'templates handler, as mcp-server-kubernetes is.',
      '',
      line(['Server', 'What it is', 'Resources', 'Templates']),
      line(['---', '---', '---', '---']),
      ...(this.resourceRows ?? []).map((r) =>
        line([r.server, r.source, String(r.resources), String(r.templates)]),
      ),
      '',
    ].join('\n');
  }
}

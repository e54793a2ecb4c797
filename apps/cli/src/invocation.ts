import { parseArgs } from 'node:util';
import { InvalidArgumentsError } from '@mcp-agent/core';

/** The parsed command line, and how to answer: human text, or JSON with --json. */
export interface Invocation {
  readonly values: ReturnType<typeof parse>['values'];
  readonly positionals: string[];
  readonly asJson: boolean;
  out(human: string, data: unknown): void;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: false,
    options: {
      user: { type: 'string' },
      home: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      command: { type: 'string' },
      arg: { type: 'string', multiple: true },
      env: { type: 'string', multiple: true },
      url: { type: 'string' },
      transport: { type: 'string' },
      header: { type: 'string', multiple: true },
      limit: { type: 'string' },
      full: { type: 'boolean' },
      args: { type: 'string' },
      port: { type: 'string' },
      stdio: { type: 'boolean' },
      http: { type: 'string' },
      tokens: { type: 'string' },
      days: { type: 'string' },
      'max-calls-per-hour': { type: 'string' },
      'max-tokens-per-day': { type: 'string' },
      'max-servers-per-thread': { type: 'string' },
    },
  });
}

/** Parses `args` (the command line without node and the script). */
export function invocation(args: string[]): Invocation {
  const { values, positionals } = parse(args);
  const asJson = values.json === true;
  return {
    values,
    positionals,
    asJson,
    out: (human, data) => process.stdout.write(`${asJson ? JSON.stringify(data) : human}\n`),
  };
}

export function usage(message: string): never {
  throw new InvalidArgumentsError(`${message}. Run "mcp-agent --help".`);
}

export function splitPair(pair: string): [string, string] {
  const index = pair.indexOf('=');
  if (index <= 0) usage(`"${pair}" is not KEY=VALUE`);
  return [pair.slice(0, index), pair.slice(index + 1)];
}

export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
    )
    .join('\n');
}

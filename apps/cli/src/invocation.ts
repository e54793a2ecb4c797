import { parseArgs } from 'node:util';
import { InvalidArgumentsError } from '@mcp-agent/core';

/** One flag: a value (`--limit 5`) or a switch (`--json`), possibly repeated. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
}

type Flags = Readonly<Record<string, FlagSpec>>;

/** Flags every command takes. */
const GLOBAL: Flags = {
  user: { type: 'string' },
  home: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  verbose: { type: 'boolean', short: 'v' },
  version: { type: 'boolean' },
};

const registryUrl: FlagSpec = { type: 'string' };

/**
 * Every command, its subcommands, and the flags each one takes: an unknown flag is an error
 * with a did-you-mean, never silently ignored. `stack` says whether it opens the registry.
 */
export const COMMANDS: Readonly<
  Record<
    string,
    { readonly stack: boolean; readonly subs?: Record<string, Flags>; readonly flags?: Flags }
  >
> = {
  servers: {
    stack: true,
    subs: {
      add: {
        command: { type: 'string' },
        arg: { type: 'string', multiple: true },
        env: { type: 'string', multiple: true },
        cwd: { type: 'string' },
        url: { type: 'string' },
        transport: { type: 'string' },
        header: { type: 'string', multiple: true },
        replace: { type: 'boolean' },
        'from-registry': { type: 'string' },
        'registry-url': registryUrl,
        remote: { type: 'boolean' },
        timeout: { type: 'string' },
      },
      import: {
        partial: { type: 'boolean' },
        input: { type: 'string', multiple: true },
        'workspace-folder': { type: 'string' },
      },
      list: {},
      show: {},
      enable: {},
      disable: {},
      export: { 'with-secrets': { type: 'boolean' } },
      remove: {},
      status: { timeout: { type: 'string' } },
    },
  },
  eval: {
    stack: false,
    flags: {
      model: { type: 'string' },
      mode: { type: 'string', multiple: true },
      modes: { type: 'string', multiple: true },
      task: { type: 'string', multiple: true },
      tasks: { type: 'string', multiple: true },
      queries: { type: 'string' },
      timeout: { type: 'string' },
      'max-input-tokens': { type: 'string' },
      size: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
  },
  auth: { stack: true, subs: { login: { port: { type: 'string' } }, logout: {} } },
  tools: {
    stack: true,
    subs: {
      search: { limit: { type: 'string' } },
      describe: { full: { type: 'boolean' } },
      call: {
        args: { type: 'string' },
        full: { type: 'boolean' },
        out: { type: 'string' },
        timeout: { type: 'string' },
      },
    },
  },
  resources: { stack: true, subs: { list: {}, read: { out: { type: 'string' } } } },
  exec: { stack: true, flags: { out: { type: 'string' } } },
  run: { stack: true, flags: {} },
  serve: {
    stack: true,
    flags: { stdio: { type: 'boolean' }, http: { type: 'string' }, tokens: { type: 'string' } },
  },
  ui: { stack: false, flags: { port: { type: 'string' } } },
  usage: {
    stack: true,
    flags: {
      days: { type: 'string' },
      'max-calls-per-hour': { type: 'string' },
      'max-tokens-per-day': { type: 'string' },
      'max-servers-per-thread': { type: 'string' },
    },
  },
  tokens: {
    stack: false,
    subs: {
      add: { tokens: { type: 'string' } },
      revoke: { tokens: { type: 'string' } },
      list: { tokens: { type: 'string' } },
    },
  },
  registry: {
    stack: false,
    subs: { search: { limit: { type: 'string' }, 'registry-url': registryUrl } },
  },
  'client-config': {
    stack: false,
    flags: {
      write: { type: 'boolean' },
      file: { type: 'string' },
      name: { type: 'string' },
      npx: { type: 'boolean' },
    },
  },
};

type Values = Record<string, string | boolean | string[] | undefined>;

/** The parsed command line, and how to answer: human text, or JSON with --json. */
export interface Invocation {
  readonly command: string | undefined;
  readonly sub: string | undefined;
  /** Positionals after the command and its subcommand. */
  readonly rest: string[];
  readonly values: Values;
  readonly asJson: boolean;
  out(human: string, data: unknown): void;
}

/**
 * Parses `args` (the command line without node and the script) strictly for the command it
 * names: flags are checked against that command's list (and the global ones), so `--agrs` is an
 * error that suggests `--args`. A value that starts with a dash is taken as the value of the flag
 * before it (`--arg -y`).
 */
export function invocation(args: string[]): Invocation {
  const all = allFlags();
  const tokens = joinDashValues(args, all);
  const loose = parseArgs({
    args: tokens,
    options: toOptions(all),
    allowPositionals: true,
    strict: false,
  });
  const [command, maybeSub] = loose.positionals;
  const spec = command === undefined ? undefined : COMMANDS[command];
  const sub = spec?.subs === undefined ? undefined : maybeSub;
  const flags: Flags = {
    ...GLOBAL,
    ...(spec?.flags ?? {}),
    ...(spec?.subs !== undefined && sub !== undefined ? (spec.subs[sub] ?? {}) : {}),
  };
  // An unknown command or subcommand is reported by the dispatcher with its own suggestion;
  // until then only the global flags are checked.
  const known =
    spec !== undefined && (spec.subs === undefined || (sub !== undefined && sub in spec.subs));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: tokens,
      options: toOptions(known ? flags : all),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw flagError(error as Error & { code?: string }, flags, command, sub);
  }
  const values = parsed.values as Values;
  const asJson = values.json === true;
  const positionals = parsed.positionals;
  return {
    command,
    sub,
    rest: positionals.slice(spec?.subs === undefined ? 1 : 2),
    values,
    asJson,
    out: (human, data) => process.stdout.write(`${asJson ? JSON.stringify(data) : human}\n`),
  };
}

/** A usage error: the message and where to read more. */
export function usage(message: string, command?: string): never {
  throw new InvalidArgumentsError(
    `${message}. Run "mcp-agent ${command === undefined ? '' : `${command} `}--help".`,
  );
}

/** `KEY=VALUE` as a pair; a usage error otherwise. */
export function splitPair(pair: string, flag = '--env'): [string, string] {
  const index = pair.indexOf('=');
  if (index <= 0) usage(`${flag} "${pair.slice(0, 60)}" is not KEY=VALUE`);
  return [pair.slice(0, index), pair.slice(index + 1)];
}

/** The pairs of a repeated `KEY=VALUE` flag as an object. */
export function pairs(list: unknown, flag: string): Record<string, string> {
  return Object.fromEntries(((list as string[] | undefined) ?? []).map((p) => splitPair(p, flag)));
}

/**
 * A whole-number flag within bounds, or its default; anything else is a usage error naming the
 * flag, the bounds and what was given (never a NaN passed on).
 */
export function wholeNumber(
  values: Values,
  flag: string,
  bounds: { min: number; max: number; fallback: number },
): number {
  const raw = values[flag];
  if (raw === undefined) return bounds.fallback;
  const value = Number(raw);
  if (
    typeof raw !== 'string' ||
    !/^\d+$/.test(raw.trim()) ||
    value < bounds.min ||
    value > bounds.max
  )
    throw new InvalidArgumentsError(
      `--${flag} must be a whole number from ${bounds.min} to ${bounds.max}, not "${String(raw).slice(0, 40)}".`,
    );
  return value;
}

/** A text table whose last column is not padded. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
    )
    .join('\n');
}

/** The closest of `candidates` to `word`, when it is close enough to be a likely typo. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = word.length <= 4 ? 1 : 2;
  return best !== undefined && (bestDistance <= allowed || best.startsWith(word))
    ? best
    : undefined;
}

// Edits between two words, a swap of neighbours counting as one (`agrs` is one from `args`).
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = value;
    }
  }
  return at(a.length, b.length);
}

// Every flag of every command, for finding the command before the strict parse.
function allFlags(): Flags {
  const all: Record<string, FlagSpec> = { ...GLOBAL };
  for (const spec of Object.values(COMMANDS)) {
    Object.assign(all, spec.flags ?? {});
    for (const flags of Object.values(spec.subs ?? {})) Object.assign(all, flags);
  }
  return all;
}

function toOptions(flags: Flags): NonNullable<Parameters<typeof parseArgs>[0]>['options'] {
  return Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [
      name,
      {
        type: flag.type,
        ...(flag.multiple === true ? { multiple: true } : {}),
        ...(flag.short === undefined ? {} : { short: flag.short }),
      },
    ]),
  );
}

// `--arg -y` → `--arg=-y`: a value flag takes the next word even when it starts with a dash.
function joinDashValues(args: string[], flags: Flags): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const token = args[i] as string;
    const next = args[i + 1];
    if (token === '--') {
      out.push(...args.slice(i));
      break;
    }
    const name = token.startsWith('--') && !token.includes('=') ? token.slice(2) : undefined;
    if (
      name !== undefined &&
      flags[name]?.type === 'string' &&
      next !== undefined &&
      next.startsWith('-')
    ) {
      out.push(`${token}=${next}`);
      i += 1;
    } else out.push(token);
  }
  return out;
}

function flagError(
  error: Error & { code?: string },
  flags: Flags,
  command: string | undefined,
  sub: string | undefined,
): InvalidArgumentsError {
  const where = [command, sub].filter(Boolean).join(' ');
  const scope = where === '' ? 'mcp-agent' : `mcp-agent ${where}`;
  const name = /'(-{1,2}[^'\s=]+)/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const bare = name.replace(/^-+/, '');
    const suggestion = closest(bare, Object.keys(flags));
    const known = Object.keys(flags).filter((flag) => !(flag in GLOBAL));
    return new InvalidArgumentsError(
      `unknown flag ${name} for "${scope}"${
        suggestion === undefined
          ? known.length === 0
            ? '; it takes no flags besides the global ones'
            : `; its flags are ${known.map((flag) => `--${flag}`).join(', ')}`
          : `; did you mean --${suggestion}?`
      }${suggestion === undefined ? '.' : ''} Run "${scope} --help".`,
    );
  }
  if (/argument missing/.test(error.message))
    return new InvalidArgumentsError(`${name} needs a value. Run "${scope} --help".`);
  if (/does not take an argument/.test(error.message))
    return new InvalidArgumentsError(`${name} takes no value. Run "${scope} --help".`);
  return new InvalidArgumentsError(`${error.message}. Run "${scope} --help".`);
}

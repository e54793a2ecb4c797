import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, resolve, sep } from 'node:path';
import {
  configInputs,
  InvalidArgumentsError,
  parseServerConfig,
  ServerNotFoundError,
  type AgentContext,
  type ServerConfig,
} from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { recordedStatus, type ConnectionRecord } from '@mcp-agent/registry';
import { fileProblem } from '../cli-errors.js';
import { pairs, table, usage, wholeNumber, type Invocation } from '../invocation.js';
import { askInputs } from '../prompt.js';
import { configFromRegistry } from './registry.js';
import type { StackCommand } from './stack-command.js';

/** servers add | import | list | show | enable | disable | export | remove. */
export const servers: StackCommand = async (cli, stack, ctx, sub, rest) => {
  const { out } = cli;
  switch (sub) {
    case 'add':
      return add(cli, stack, ctx, rest[0]);
    case 'import':
      return importFile(cli, stack, ctx, rest[0]);
    case 'list': {
      const entries = await stack.registry.tiers(ctx);
      const list = entries
        .filter((e) => e.excludedBy === undefined || e.excludedBy === 'disabled')
        .map(({ server, excludedBy }) => ({ ...server, enabled: excludedBy !== 'disabled' }));
      out(
        list.length === 0
          ? 'no servers; add one with "mcp-agent servers add"'
          : table(list.map((s) => [s.id, s.scope, s.transport, s.enabled ? s.status : 'disabled'])),
        list,
      );
      return;
    }
    case 'show':
      return show(cli, stack, ctx, rest[0] ?? usage('servers show needs an id', 'servers show'));
    case 'enable':
    case 'disable': {
      const id = rest[0] ?? usage(`servers ${sub} needs an id`, `servers ${sub}`);
      await stack.registry.setServerEnabled(ctx, id, sub === 'enable');
      out(`${sub}d ${id}`, { [`${sub}d`]: id });
      return;
    }
    case 'export':
      return exportServers(cli, stack, ctx, rest);
    case 'remove': {
      const id = rest[0] ?? usage('servers remove needs an id', 'servers remove');
      await stack.registry.removeServer(ctx, id);
      out(`removed ${id}`, { removed: id });
      return;
    }
    default:
      usage(`unknown "servers ${sub ?? ''}"`, 'servers');
  }
};

async function add(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  given: string | undefined,
): Promise<void> {
  const { values, out } = cli;
  const fromRegistry = values['from-registry'];
  let config: Record<string, unknown>;
  let source = '';
  if (typeof fromRegistry === 'string') {
    if (values.command !== undefined || values.url !== undefined)
      usage(
        '--from-registry takes the command or URL from the registry; leave out --command and --url',
        'servers add',
      );
    const found = await configFromRegistry(cli, fromRegistry, given);
    config = found.config as Record<string, unknown>;
    source = ` from ${found.name} ${found.version} (${found.via})`;
  } else {
    const id =
      given ??
      usage(
        'servers add needs an id: mcp-agent servers add <id> --command … | --url …',
        'servers add',
      );
    if (values.url !== undefined && values.command !== undefined)
      usage('servers add takes --command (stdio) or --url (remote), not both', 'servers add');
    if (values.url === undefined && values.command === undefined)
      usage(
        `servers add ${id} needs --command <program> (stdio) or --url <https://…> (remote)`,
        'servers add',
      );
    config =
      values.url !== undefined
        ? {
            id,
            transport: String(values.transport ?? 'auto'),
            url: String(values.url),
            headers: pairs(values.header, '--header'),
          }
        : {
            id,
            transport: 'stdio',
            command: String(values.command),
            args: (values.arg as string[] | undefined) ?? [],
            env: pairs(values.env, '--env'),
            ...(values.cwd === undefined ? {} : { cwd: resolve(String(values.cwd)) }),
          };
  }
  // --timeout: how long one request may go without an answer or progress, in seconds.
  const parsed = parseServerConfig(
    values.timeout === undefined
      ? config
      : {
          ...(config as object),
          timeoutMs: wholeNumber(values, 'timeout', { min: 1, max: 3_600, fallback: 60 }) * 1000,
        },
  );
  // Replacing a server loses its definition and secrets: only when asked.
  const existing = await stack.registry.storedServer(ctx, parsed.id);
  if (
    values.replace !== true &&
    (existing?.scope === 'user' || stack.registry.appServers.has(parsed.id))
  )
    throw new InvalidArgumentsError(
      `A server "${parsed.id}" exists already (${existing?.transport ?? stack.registry.appServers.get(parsed.id)?.transport}); add --replace to replace it, or see it with "mcp-agent servers show ${parsed.id}".`,
    );
  const record = await stack.registry.addServer(ctx, parsed);
  const replaced = existing?.scope === 'user';
  out(
    `${replaced ? 'replaced' : 'added'} ${record.serverId} (${record.transport}) for ${ctx.userId}${source}`,
    { added: record.serverId, ...(replaced ? { replaced: true } : {}) },
  );
}

async function importFile(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  file: string | undefined,
): Promise<void> {
  const { values, out, asJson } = cli;
  const path =
    file ??
    usage('servers import needs a file: mcp-agent servers import <mcp.json>', 'servers import');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw fileProblem(path, error);
  }
  const given = pairs(values.input, '--input');
  const inputs = {
    ...given,
    ...(await askInputs(configInputs(text).filter((i) => !(i.id in given)))),
  };
  // VS Code's ${workspaceFolder} is the folder that holds .vscode/; a file elsewhere is taken to
  // sit in its workspace's root.
  const folder = dirname(resolve(path));
  const workspace =
    typeof values['workspace-folder'] === 'string'
      ? resolve(values['workspace-folder'])
      : basename(folder) === '.vscode'
        ? dirname(folder)
        : folder;
  const result = await stack.registry.importServers(ctx, text, {
    source: path,
    partial: values.partial === true,
    inputs,
    variables: {
      workspaceFolder: workspace,
      workspaceFolderBasename: basename(workspace),
      userHome: homedir(),
      pathSeparator: sep,
      '/': sep,
    },
  });
  const lines = [
    `imported ${result.imported.join(', ') || 'nothing'}${result.ignored.length > 0 ? ` (ignored: ${result.ignored.join(', ')})` : ''}`,
  ];
  const rejected = result.rejected ?? [];
  if (rejected.length > 0) {
    lines.push(`left out ${rejected.length} (fix them and import again):`);
    for (const left of rejected)
      lines.push(`  ${left.id}: ${left.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
  out(lines.join('\n'), result);
  if (!asJson && result.imported.length === 0 && rejected.length > 0) process.exitCode = 2;
}

async function show(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  id: string,
): Promise<void> {
  const availability = await stack.registry.availability(ctx);
  const entry = availability.get(id);
  const row = await stack.registry.storedServer(ctx, id);
  const app = stack.registry.appServers.get(id);
  if (entry === undefined || (row?.scope !== 'user' && app === undefined)) throw notFound(id);
  const definition = row?.scope === 'user' ? publicDefinition(row) : publicApp(app as ServerConfig);
  // The state in the words "servers status" uses for it (one mapping for both).
  const status = entry.excludedBy === 'disabled' ? 'disabled' : recordedStatus(entry);
  const shown = {
    id,
    tier: row?.scope === 'user' ? 'user' : 'app',
    enabled: entry.excludedBy !== 'disabled',
    ...definition,
    status,
    lastError: entry.lastError,
    toolCount: entry.toolCount,
  };
  const lines: [string, string][] = [
    ['id', id],
    ['tier', `${shown.tier}${shown.tier === 'app' ? ' (set by the operator for every user)' : ''}`],
    ['enabled', shown.enabled ? 'yes' : 'no'],
    ['transport', definition.transport],
    ...(definition.command === undefined
      ? ([['url', definition.url ?? '']] as [string, string][])
      : ([['command', [definition.command, ...(definition.args ?? [])].map(quote).join(' ')]] as [
          string,
          string,
        ][])),
    ...(definition.cwd === undefined ? [] : ([['cwd', definition.cwd]] as [string, string][])),
    ...(definition.envNames === undefined
      ? []
      : ([['env', names(definition.envNames)]] as [string, string][])),
    ...(definition.headerNames === undefined
      ? []
      : ([['headers', names(definition.headerNames)]] as [string, string][])),
    [
      'timeout',
      definition.timeoutMs === undefined
        ? 'the default per request (60 s, reset by progress)'
        : `${definition.timeoutMs / 1000} s per request (reset by progress)`,
    ],
    ['status', `${status}${entry.lastError ? `: ${entry.lastError}` : ''}`],
    ['tools', String(entry.toolCount ?? 'not discovered yet')],
  ];
  cli.out(lines.map(([key, value]) => `${`${key}:`.padEnd(11)}${value}`).join('\n'), shown);
}

async function exportServers(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  ids: string[],
): Promise<void> {
  const withSecrets = cli.values['with-secrets'] === true;
  const rows = (await stack.registry.storedServers(ctx)).filter(
    (row) => row.scope === 'user' && (ids.length === 0 || ids.includes(row.serverId)),
  );
  const missing = ids.filter((id) => !rows.some((row) => row.serverId === id));
  if (missing.length > 0) throw notFound(missing[0] as string);
  const placeholders: string[] = [];
  const mcpServers: Record<string, unknown> = {};
  for (const row of rows) {
    const full = withSecrets
      ? await stack.registry.resolveServer(ctx, row.serverId).catch(() => undefined)
      : undefined;
    const secret = (kind: 'env' | 'header', name: string): string => {
      const value =
        full === undefined
          ? undefined
          : kind === 'env'
            ? (full as { env?: Record<string, string> }).env?.[name]
            : (full as { headers?: Record<string, string> }).headers?.[name];
      if (value !== undefined) return value;
      const variable =
        kind === 'env' ? name : `${row.serverId}_${name}`.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
      placeholders.push(variable);
      return `\${${variable}}`;
    };
    const config = row.config as Definition & { transport: string };
    mcpServers[row.serverId] =
      config.transport === 'stdio'
        ? {
            command: config.command,
            args: config.args,
            ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
            ...((config.envNames ?? []).length === 0
              ? {}
              : {
                  env: Object.fromEntries(
                    (config.envNames ?? []).map((n) => [n, secret('env', n)]),
                  ),
                }),
            ...(row.enabled ? {} : { disabled: true }),
          }
        : {
            ...(config.transport === 'auto'
              ? {}
              : { type: config.transport === 'sse' ? 'sse' : 'http' }),
            url: config.url,
            ...((config.headerNames ?? []).length === 0
              ? {}
              : {
                  headers: Object.fromEntries(
                    (config.headerNames ?? []).map((n) => [n, secret('header', n)]),
                  ),
                }),
            ...(row.enabled ? {} : { disabled: true }),
          };
  }
  process.stdout.write(`${JSON.stringify({ mcpServers }, null, 2)}\n`);
  if (placeholders.length > 0)
    process.stderr.write(
      `Secret values are written as placeholders: set ${[...new Set(placeholders)].join(', ')} where you import the file, or export with --with-secrets.\n`,
    );
}

type Definition = {
  transport: string;
  command?: string;
  args?: readonly string[];
  cwd?: string;
  url?: string;
  envNames?: readonly string[];
  headerNames?: readonly string[];
  timeoutMs?: number;
};

function publicDefinition(row: ConnectionRecord): Definition {
  const {
    id: _id,
    enabled: _enabled,
    name: _name,
    description: _description,
    ...rest
  } = row.config as Definition & {
    id: string;
    enabled: boolean;
    name?: string;
    description?: string;
  };
  return rest;
}

// An app server's definition with its env and header values left out, as for user servers.
function publicApp(config: ServerConfig): Definition {
  return config.transport === 'stdio'
    ? {
        transport: config.transport,
        command: config.command,
        args: config.args,
        ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
        envNames: Object.keys(config.env),
        ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
      }
    : {
        transport: config.transport,
        url: config.url,
        headerNames: Object.keys(config.headers),
        ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
      };
}

function names(list: readonly string[]): string {
  return list.length === 0 ? '(none)' : `${list.join(', ')} (values stored encrypted, not shown)`;
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function notFound(id: string): ServerNotFoundError {
  return new ServerNotFoundError(
    `No server "${id.slice(0, 64)}" for this user; "mcp-agent servers list" lists them.`,
  );
}

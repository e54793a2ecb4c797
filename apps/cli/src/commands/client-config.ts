import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';
import { ConfigError, InvalidArgumentsError, SERVER_ID_PATTERN } from '@mcp-agent/core';
import { fileProblem } from '../cli-errors.js';
import { closest, usage, type Invocation } from '../invocation.js';

/** An MCP client: where its config file is, and the key its servers live under. */
interface Client {
  readonly title: string;
  readonly key: 'mcpServers' | 'servers';
  /** Entries carry `"type": "stdio"` (VS Code requires it; Claude Code writes it). */
  readonly typed: boolean;
  readonly path: () => string;
}

// The config files as each client documents them.
const CLIENTS: Record<string, Client> = {
  claude: {
    title: 'Claude Desktop',
    key: 'mcpServers',
    typed: false,
    path: () => {
      if (process.platform === 'darwin')
        return join(
          homedir(),
          'Library',
          'Application Support',
          'Claude',
          'claude_desktop_config.json',
        );
      if (process.platform === 'win32')
        return join(
          process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'),
          'Claude',
          'claude_desktop_config.json',
        );
      return join(
        process.env.XDG_CONFIG_HOME || join(homedir(), '.config'),
        'Claude',
        'claude_desktop_config.json',
      );
    },
  },
  cursor: {
    title: 'Cursor',
    key: 'mcpServers',
    typed: false,
    path: () => join(homedir(), '.cursor', 'mcp.json'),
  },
  vscode: {
    title: 'VS Code',
    key: 'servers',
    typed: true,
    path: () => resolve('.vscode', 'mcp.json'),
  },
  'claude-code': {
    title: 'Claude Code',
    key: 'mcpServers',
    typed: true,
    path: () => resolve('.mcp.json'),
  },
};

/**
 * client-config <client> [--write] [--file f] [--name key] [--npx]: the entry that runs this
 * gateway (`serve --stdio`, with --user and --home as given) in the client's format; with
 * --write merged into its config file, keeping everything else there, saying what changed.
 */
export async function clientConfig(cli: Invocation, rest: string[]): Promise<void> {
  const name =
    rest[0] ??
    usage(`client-config needs a client: ${Object.keys(CLIENTS).join(', ')}`, 'client-config');
  const client = CLIENTS[name];
  if (client === undefined) {
    const suggestion = closest(name, Object.keys(CLIENTS));
    usage(
      `unknown client "${name}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; use one of ${Object.keys(CLIENTS).join(', ')}`,
      'client-config',
    );
  }
  const key = typeof cli.values.name === 'string' ? cli.values.name : 'mcp-agent';
  if (!SERVER_ID_PATTERN.test(key))
    usage(
      `--name "${key.slice(0, 40)}" must be 1-64 lowercase letters, digits, "_" or "-"`,
      'client-config',
    );
  const entry = gatewayEntry(cli, client);
  const snippet = { [client.key]: { [key]: entry } };
  if (cli.values.write !== true) {
    const addJson =
      name === 'claude-code'
        ? `\n\nOr let Claude Code add it:\n  claude mcp add-json ${key} '${JSON.stringify(entry)}'`
        : '';
    cli.out(
      `${JSON.stringify(snippet, null, 2)}${addJson}\n\n(${client.title}: ${client.path()}; "mcp-agent client-config ${name} --write" merges it there)`,
      { client: name, file: client.path(), snippet },
    );
    return;
  }
  const file = typeof cli.values.file === 'string' ? resolve(cli.values.file) : client.path();
  const change = mergeInto(file, client.key, key, entry);
  cli.out(
    change === 'unchanged'
      ? `${file} already has "${key}" as it should be; nothing changed`
      : `${change === 'added' ? 'added' : 'replaced'} "${key}" under "${client.key}" in ${file}; everything else is as it was. Restart ${client.title} to load it.`,
    { client: name, file, change, entry },
  );
}

// How the client starts the gateway: this Node and this script (what runs now, so it works
// without an install), or the published package through npx.
function gatewayEntry(cli: Invocation, client: Client): Record<string, unknown> {
  const flags = [
    ...(typeof cli.values.user === 'string' ? ['--user', cli.values.user] : []),
    ...(typeof cli.values.home === 'string' ? ['--home', resolve(cli.values.home)] : []),
  ];
  const script = fileURLToPath(new URL('../mcp-agent.js', import.meta.url));
  const packageName = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      name: string;
    }
  ).name;
  const [command, ...args] =
    cli.values.npx === true
      ? ['npx', '-y', packageName, ...flags, 'serve', '--stdio']
      : [process.execPath, script, ...flags, 'serve', '--stdio'];
  return { ...(client.typed ? { type: 'stdio' } : {}), command, args };
}

// Writes `entry` at [section, key] of the JSON (or JSONC) file, editing only that member so
// comments, formatting and other entries stay; atomically, through a file beside it.
function mergeInto(
  file: string,
  section: string,
  key: string,
  entry: Record<string, unknown>,
): 'added' | 'replaced' | 'unchanged' {
  let text = '{}\n';
  if (existsSync(file)) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw fileProblem(file, error);
    }
  }
  const errors: ParseError[] = [];
  const document = (
    text.trim() === '' ? {} : parse(text, errors, { allowTrailingComma: true })
  ) as unknown;
  if (
    errors.length > 0 ||
    typeof document !== 'object' ||
    document === null ||
    Array.isArray(document)
  )
    throw new ConfigError(
      `${file} is not a JSON object this command can merge into; fix it by hand (nothing was written).`,
    );
  const current = (document as Record<string, Record<string, unknown> | undefined>)[section]?.[key];
  if (current !== undefined && JSON.stringify(current) === JSON.stringify(entry))
    return 'unchanged';
  const edits = modify(text.trim() === '' ? '{}\n' : text, [section, key], entry, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  const updated = applyEdits(text.trim() === '' ? '{}\n' : text, edits);
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temporary = `${file}.mcp-agent-${process.pid}.tmp`;
    const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600;
    writeFileSync(temporary, updated.endsWith('\n') ? updated : `${updated}\n`, { mode });
    renameSync(temporary, file);
  } catch (error) {
    if (error instanceof InvalidArgumentsError) throw error;
    throw fileProblem(file, error);
  }
  return current === undefined ? 'added' : 'replaced';
}

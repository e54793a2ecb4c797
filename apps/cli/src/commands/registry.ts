import {
  DEFAULT_MCP_REGISTRY_URL,
  McpRegistryClient,
  serverConfigFromRegistry,
} from '@mcp-agent/registry';
import { ConfigError, type ServerConfigInput, clip } from '@mcp-agent/core';
import { pairs, table, usage, wholeNumber, type Invocation } from '../invocation.js';

/** The MCP Registry this command reads: --registry-url, MCP_AGENT_MCP_REGISTRY_URL, the official one. */
function client(cli: Invocation): McpRegistryClient {
  const flag = cli.values['registry-url'];
  return new McpRegistryClient({
    baseUrl:
      typeof flag === 'string'
        ? flag
        : process.env.MCP_AGENT_MCP_REGISTRY_URL || DEFAULT_MCP_REGISTRY_URL,
  });
}

/** registry search <words>: servers of the MCP Registry whose name contains the words. */
export async function registrySearch(cli: Invocation, words: string[]): Promise<void> {
  const query = words.join(' ').trim();
  if (query === '')
    usage('registry search needs words: mcp-agent registry search github', 'registry');
  const limit = wholeNumber(cli.values, 'limit', { min: 1, max: 100, fallback: 20 });
  const page = await client(cli).search(query, { limit });
  const rows = page.servers.map((entry) => {
    const runs = [
      ...entry.packages.map((p) => `${p.registryType} ${p.identifier}`),
      ...entry.remotes.map((r) => `${r.type} ${r.url}`),
    ];
    return [entry.name, entry.version, runs[0] ?? '-', oneLine(entry.description, 60)];
  });
  const more =
    page.nextCursor === undefined
      ? ''
      : `\n(more than ${limit}: narrow the words or raise --limit)`;
  cli.out(
    rows.length === 0
      ? `no server of ${client(cli).baseUrl} has "${query}" in its name`
      : `${table([['NAME', 'VERSION', 'RUNS AS', 'DESCRIPTION'], ...rows])}${more}\nAdd one with "mcp-agent servers add --from-registry <name>"; --json shows each entry whole.`,
    page,
  );
}

/** The definition `servers add --from-registry <name>` adds, or what the user must still give. */
export async function configFromRegistry(
  cli: Invocation,
  name: string,
  id: string | undefined,
): Promise<{ config: ServerConfigInput; name: string; version: string; via: string }> {
  const entry = await client(cli).get(name);
  const result = serverConfigFromRegistry(entry, {
    ...(id === undefined ? {} : { id }),
    env: pairs(cli.values.env, '--env'),
    headers: pairs(cli.values.header, '--header'),
    prefer: cli.values.remote === true ? 'remote' : 'package',
  });
  if (result.ok)
    return { config: result.config, name: entry.name, version: entry.version, via: result.via };
  if ('unsupported' in result) throw new ConfigError(`Cannot add it: ${result.unsupported}.`);
  const flags = result.missing.map((input) =>
    input.kind === 'argument'
      ? `"${input.name}"${input.description ? ` (${input.description})` : ''}`
      : `--${input.kind} ${input.name}=<${input.secret ? 'secret' : 'value'}>${input.description ? ` (${input.description})` : ''}`,
  );
  throw new ConfigError(
    `"${entry.name}" (${result.via}) needs values you have not given: ${flags.join(', ')}.`,
  );
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return clip(line, max - 1);
}

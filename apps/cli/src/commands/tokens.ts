import { InvalidArgumentsError } from '@mcp-agent/core';
import { addToken, readTokenFile, revokeToken } from '@mcp-agent/server';
import { table, usage, type Invocation } from '../invocation.js';

/**
 * tokens add <user> | revoke <id> | list: the static bearer tokens of `mcp-agent-server` and
 * `serve --http`, kept in a token file of SHA-256 digests. A running server re-reads the file, so
 * a new token works and a revoked one stops working without a restart. It needs no registry.
 */
export function tokens(cli: Invocation, sub: string | undefined, rest: string[]): void {
  const { values, out } = cli;
  const file = String(values.tokens ?? process.env.MCP_AGENT_TOKENS_FILE ?? '');
  if (file === '')
    throw new InvalidArgumentsError(
      'Say which token file: --tokens <file> (or MCP_AGENT_TOKENS_FILE), the file the server reads.',
    );
  switch (sub) {
    case 'add': {
      const user = rest[0] ?? usage('tokens add needs a user: mcp-agent tokens add <user>');
      const { token, entry } = addToken(file, user);
      out(
        `added ${entry.id} for ${entry.user}; the token, shown this once (store it now):\n${token}`,
        { id: entry.id, user: entry.user, token },
      );
      return;
    }
    case 'revoke': {
      const id = rest[0] ?? usage('tokens revoke needs an id; "mcp-agent tokens list" shows them');
      const entry = revokeToken(file, id);
      out(`revoked ${entry.id} of ${entry.user}`, { revoked: entry.id, user: entry.user });
      return;
    }
    case 'list': {
      const { entries, plain } = readTokenFile(file);
      const rows = entries.map((e) => ({ id: e.id, user: e.user, created: e.created ?? null }));
      out(
        rows.length === 0
          ? 'no tokens; add one with "mcp-agent tokens add <user>"'
          : table([
              ['ID', 'USER', 'CREATED'],
              ...rows.map((r) => [r.id, r.user, r.created ?? '-']),
            ]) +
              (plain
                ? '\n(this file holds plain tokens: "tokens add" or "revoke" rewrites it with digests)'
                : ''),
        rows,
      );
      return;
    }
    default:
      usage(`unknown "tokens ${sub ?? ''}"; see mcp-agent tokens --help`);
  }
}

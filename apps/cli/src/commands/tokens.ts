import { createContext, InvalidArgumentsError, toMcpAgentError } from '@mcp-agent/core';
import { addToken, readTokenFile, revokeToken } from '@mcp-agent/server';
import { table, usage, type Invocation } from '../invocation.js';

/** A token added or revoked, for the audit log. */
export interface TokenChange {
  readonly action: 'token.added' | 'token.revoked';
  readonly user: string;
  readonly tokenId: string;
}

/**
 * tokens add <user> | revoke <id> | list: the static bearer tokens of `mcp-agent-server` and
 * `serve --http`, kept in a token file of SHA-256 digests. A running server re-reads the file, so
 * a new token works and a revoked one stops working without a restart. It needs no registry;
 * an addition or revocation is returned, for {@link auditTokenChange}.
 */
export function tokens(
  cli: Invocation,
  sub: string | undefined,
  rest: string[],
): TokenChange | undefined {
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
      return { action: 'token.added', user: entry.user, tokenId: entry.id };
    }
    case 'revoke': {
      const id = rest[0] ?? usage('tokens revoke needs an id; "mcp-agent tokens list" shows them');
      const entry = revokeToken(file, id);
      out(`revoked ${entry.id} of ${entry.user}`, { revoked: entry.id, user: entry.user });
      return { action: 'token.revoked', user: entry.user, tokenId: entry.id };
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
      return undefined;
    }
    default:
      usage(`unknown "tokens ${sub ?? ''}"; see mcp-agent tokens --help`);
  }
}

/**
 * Records a token added or revoked in the audit log of the user it belongs to, as the operator's
 * act — when the command names the server's registry (`--home`, `MCP_AGENT_HOME` or
 * `MCP_AGENT_DATABASE_URL`; a token file alone says nothing of where the server keeps its data).
 * The token file is already written: a registry that cannot be opened is a warning, not a
 * failure.
 */
export async function auditTokenChange(cli: Invocation, change: TokenChange): Promise<void> {
  const home = typeof cli.values.home === 'string' ? cli.values.home : undefined;
  const env = process.env;
  if (home === undefined && !env.MCP_AGENT_HOME && !env.MCP_AGENT_DATABASE_URL) return;
  try {
    const { openRegistry } = await import('@mcp-agent/registry');
    const registry = await openRegistry(home === undefined ? {} : { home });
    try {
      await registry.recordAudit(createContext({ userId: change.user }), {
        action: change.action,
        actor: 'operator',
        detail: { tokenId: change.tokenId },
      });
    } finally {
      await registry.close();
    }
  } catch (thrown) {
    process.stderr.write(
      `mcp-agent: warning: ${change.action} was not recorded in the audit log: ${toMcpAgentError(thrown).message}\n`,
    );
  }
}

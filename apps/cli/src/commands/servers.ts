import { readFileSync } from 'node:fs';
import { parseServerConfig, type AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { splitPair, table, usage, type Invocation } from '../invocation.js';

/** servers add | import | list | remove | status. */
export async function servers(
  cli: Invocation,

  stack: AgentStack,
  ctx: AgentContext,
  sub: string | undefined,
  rest: string[],
): Promise<void> {
  const { values, asJson, out } = cli;
  switch (sub) {
    case 'add': {
      const id =
        rest[0] ??
        usage('servers add needs an id: mcp-agent servers add <id> --command … | --url …');
      const pairs = (list: unknown) =>
        Object.fromEntries(((list as string[] | undefined) ?? []).map(splitPair));
      const config =
        values.url !== undefined
          ? {
              id,
              transport: String(values.transport ?? 'auto'),
              url: String(values.url),
              headers: pairs(values.header),
            }
          : {
              id,
              transport: 'stdio',
              command: values.command === undefined ? '' : String(values.command),
              args: (values.arg as string[] | undefined) ?? [],
              env: pairs(values.env),
            };
      parseServerConfig(config);
      const record = await stack.registry.addServer(ctx, config);
      out(`added ${record.providerId} (${record.transport}) for ${ctx.userId}`, {
        added: record.providerId,
      });
      return;
    }
    case 'import': {
      const file =
        rest[0] ?? usage('servers import needs a file: mcp-agent servers import <mcp.json>');
      const result = await stack.registry.importServers(ctx, readFileSync(file, 'utf8'), {
        source: file,
      });
      out(
        `imported ${result.imported.join(', ') || 'nothing'}${result.ignored.length > 0 ? ` (ignored: ${result.ignored.join(', ')})` : ''}`,
        result,
      );
      return;
    }
    case 'list': {
      const list = await stack.registry.activeServers(ctx, { includeDisabled: true });
      out(
        list.length === 0
          ? 'no servers; add one with "mcp-agent servers add"'
          : table(list.map((s) => [s.id, s.scope, s.transport, s.status])),
        list,
      );
      return;
    }
    case 'remove': {
      const id = rest[0] ?? usage('servers remove needs an id');
      await stack.registry.removeServer(ctx, id);
      out(`removed ${id}`, { removed: id });
      return;
    }
    case 'status': {
      const total = (await stack.registry.availability(ctx)).active.length;
      const progress = setInterval(() => {
        if (process.stderr.isTTY && !asJson) {
          const ready = stack.pool.status(ctx).filter((s) => s.status === 'ready').length;
          process.stderr.write(`\rconnecting: ${ready}/${total} ready`);
        }
      }, 200);
      await stack.pool.warmUp(ctx);
      clearInterval(progress);
      if (process.stderr.isTTY && !asJson) process.stderr.write('\r\x1b[K');
      const rows = stack.pool.status(ctx);
      out(
        rows.length === 0
          ? 'no servers'
          : table([
              ['SERVER', 'STATUS', 'TOOLS', 'LAST ERROR'],
              ...rows.map((s) => [
                s.serverId,
                s.status,
                String(s.toolCount ?? '-'),
                s.lastError ?? '',
              ]),
            ]),
        rows.map(({ metrics: _metrics, ...state }) => state),
      );
      if (rows.some((s) => s.status !== 'ready')) process.exitCode = 4;
      return;
    }
    default:
      usage(`unknown "servers ${sub ?? ''}"; see mcp-agent servers --help`);
  }
}

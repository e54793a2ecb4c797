import { readFileSync } from 'node:fs';
import { InvalidArgumentsError, McpAgentError, type AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { firstLine } from '@mcp-agent/knowledge';
import { table, usage, type Invocation } from '../invocation.js';

/** tools search | describe | call. */
export async function tools(
  cli: Invocation,

  stack: AgentStack,
  ctx: AgentContext,
  sub: string | undefined,
  rest: string[],
): Promise<void> {
  const { values, out } = cli;
  await stack.pool.warmUp(ctx);
  switch (sub) {
    case 'search': {
      const query =
        rest.join(' ') ||
        usage('tools search needs a query: mcp-agent tools search "create an issue"');
      const results = await stack.knowledge.search(ctx, query, {
        limit: Number(values.limit ?? 5),
      });
      out(
        results.length === 0
          ? 'no tools matched'
          : table(
              results.map((r) => [r.tool_id, r.score.toFixed(2), firstLine(r.description, 70)]),
            ),
        results,
      );
      return;
    }
    case 'describe': {
      if (rest.length === 0) usage('tools describe needs tool ids');
      const { tools: described, errors } = await stack.knowledge.deepView(ctx, rest, {
        full: values.full === true,
      });
      if (described.length === 0 && errors[0] !== undefined) throw errors[0];
      out(JSON.stringify(described, null, 2), {
        tools: described,
        errors: errors.map((e) => e.toJSON()),
      });
      return;
    }
    case 'call': {
      const id = rest[0] ?? usage('tools call needs a tool id');
      const text = values.args === undefined ? '{}' : String(values.args);
      let args: unknown;
      try {
        args = JSON.parse(text.startsWith('@') ? readFileSync(text.slice(1), 'utf8') : text);
      } catch (error) {
        throw new InvalidArgumentsError(
          `--args is not valid JSON (${(error as Error).message}); pass an object, e.g. --args '{"repo": "acme/app"}'.`,
        );
      }
      const response = await stack.dispatcher.dispatchTool(ctx, id, args, { signal: ctx.signal });
      if (!response.ok)
        throw new McpAgentError(response.error.code, response.error.message, {
          details: response.error.details,
        });
      out(
        typeof response.data === 'string' ? response.data : JSON.stringify(response.data, null, 2),
        response,
      );
      return;
    }
    default:
      usage(`unknown "tools ${sub ?? ''}"; see mcp-agent tools --help`);
  }
}

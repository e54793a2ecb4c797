import { readFileSync } from 'node:fs';
import { InvalidArgumentsError, McpAgentError, type AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { firstLine, type ToolSearchAnswer } from '@mcp-agent/knowledge';
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
      if (rest.length === 0)
        usage('tools search needs a query: mcp-agent tools search "create an issue"');
      // "a b" "c d" are two searches; unquoted words (tools search create issue) are one.
      const queries = rest.some((arg) => /\s/.test(arg.trim())) ? rest : [rest.join(' ')];
      const answer = await stack.knowledge.searchMany(ctx, queries, {
        limit: Number(values.limit ?? 5),
      });
      out(searchText(answer), answer);
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

// One block per query (no heading when there is one): its tools with their relevance to it and
// description, or why there is no good match.
function searchText(answer: ToolSearchAnswer): string {
  const tools = new Map(answer.servers.flatMap((s) => s.tools).map((t) => [t.tool_id, t]));
  const single = answer.queries.length === 1;
  const blocks = answer.queries.map((query) => {
    const heading = single ? [] : [`"${query.query}"`];
    if (query.no_good_match) {
      const closest = query.closest?.length
        ? ` Closest: ${query.closest.map((c) => `${c.tool_id} (${c.relevance.toFixed(2)})`).join(', ')}.`
        : '';
      return [...heading, `no good match: nothing connected seems to do this.${closest}`];
    }
    const rows = query.matches.map(({ tool_id, relevance }) => [
      tool_id,
      relevance.toFixed(2),
      firstLine(tools.get(tool_id)?.description ?? '', 70),
    ]);
    const text = table(rows);
    return [...heading, single ? text : text.replace(/^/gm, '  ')];
  });
  return [...blocks.map((lines) => lines.join('\n')), ...(answer.warnings ?? [])].join('\n');
}

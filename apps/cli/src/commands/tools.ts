import { readFileSync } from 'node:fs';
import {
  InvalidArgumentsError,
  McpAgentError,
  parseToolId,
  type AgentContext,
} from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { DEFAULT_ENVELOPE_LIMITS } from '@mcp-agent/execution';
import { firstLine } from '@mcp-agent/knowledge';
import { fileProblem } from '../cli-errors.js';
import { table, usage, wholeNumber, type Invocation } from '../invocation.js';

/**
 * tools search | describe | call. Search and describe read the stored catalogs and start no
 * server; call starts only the server it needs and prints the whole result.
 */
export async function tools(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  sub: string | undefined,
  rest: string[],
): Promise<void> {
  const { values, out } = cli;
  switch (sub) {
    case 'search': {
      const query =
        rest.join(' ') ||
        usage(
          'tools search needs a query: mcp-agent tools search "create an issue"',
          'tools search',
        );
      const limit = wholeNumber(values, 'limit', { min: 1, max: 50, fallback: 5 });
      await noteUndiscovered(stack, ctx);
      const results = await stack.knowledge.search(ctx, query, { limit });
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
      if (rest.length === 0) usage('tools describe needs tool ids', 'tools describe');
      await noteUndiscovered(stack, ctx);
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
      const id = rest[0] ?? usage('tools call needs a tool id', 'tools call');
      const args = readArgs(values.args);
      // Only the server this tool is on is started (or reconnected, if it failed before).
      await stack.pool.ready(ctx, parseToolId(id).providerId);
      // A person at a terminal reads the whole result, as code does: nothing is cut.
      const response = await stack.dispatcher.dispatchTool(ctx, id, args, {
        signal: ctx.signal,
        caller: 'code',
        envelope: WHOLE,
      });
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
      usage(`unknown "tools ${sub ?? ''}"`, 'tools');
  }
}

// Every envelope limit lifted, whatever the limits are called.
const WHOLE = Object.fromEntries(
  Object.keys(DEFAULT_ENVELOPE_LIMITS).map((limit) => [limit, Number.POSITIVE_INFINITY]),
);

function readArgs(flag: unknown): unknown {
  const text = flag === undefined ? '{}' : String(flag);
  let json = text;
  if (text.startsWith('@')) {
    try {
      json = readFileSync(text.slice(1), 'utf8');
    } catch (error) {
      throw fileProblem(text.slice(1), error);
    }
  }
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new InvalidArgumentsError(
      `--args is not valid JSON (${(error as Error).message}); pass an object, e.g. --args '{"repo": "acme/app"}'.`,
    );
  }
}

// Servers never connected have no stored catalog yet: say so, rather than search without them.
async function noteUndiscovered(stack: AgentStack, ctx: AgentContext): Promise<void> {
  const missing = (await stack.registry.availability(ctx)).active.filter(
    (server) => server.toolCount === null,
  );
  if (missing.length === 0) return;
  process.stderr.write(
    `note: ${missing.map((s) => s.id).join(', ')} ${missing.length === 1 ? 'has' : 'have'} not been connected yet, so ${missing.length === 1 ? 'its tools are' : 'their tools are'} not included; "mcp-agent servers status" connects ${missing.length === 1 ? 'it' : 'them'}.\n`,
  );
}

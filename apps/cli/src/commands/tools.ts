import { readFileSync } from 'node:fs';
import {
  ErrorCode,
  InvalidArgumentsError,
  McpAgentError,
  parseToolId,
  type AgentContext,
} from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { DEFAULT_ENVELOPE_LIMITS } from '@mcp-agent/execution';
import { firstLine, type ToolSearchAnswer } from '@mcp-agent/knowledge';
import { fileProblem } from '../cli-errors.js';
import { writeMediaFiles } from '../media-files.js';
import { progressLine } from '../progress-line.js';
import { failedNote } from './failed-note.js';
import { meantTool } from './missing-tool.js';
import { table, usage, wholeNumber } from '../invocation.js';
import type { StackCommand } from './stack-command.js';

/**
 * tools search | describe | call. Search and describe read the stored catalogs and start no
 * server; call starts only the server it needs and prints the whole result.
 */
export const tools: StackCommand = async (cli, stack, ctx, sub, rest) => {
  const { values, out } = cli;
  switch (sub) {
    case 'search': {
      if (rest.length === 0)
        usage(
          'tools search needs a query: mcp-agent tools search "create an issue"',
          'tools search',
        );
      // "a b" "c d" are two searches; unquoted words (tools search create issue) are one.
      const queries = rest.some((arg) => /\s/.test(arg.trim())) ? rest : [rest.join(' ')];
      const limit = wholeNumber(values, 'limit', { min: 1, max: 50, fallback: 5 });
      await noteUndiscovered(stack, ctx);
      const answer = await stack.knowledge.searchMany(ctx, queries, { limit });
      out(searchText(answer), answer);
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
      await stack.pool.ready(ctx, parseToolId(id).serverId);
      // A person at a terminal reads the whole result, as code does: nothing is cut. Progress
      // shows on standard error, and resets the timeout (--timeout, else the server's).
      const progress = progressLine(id);
      const response = await stack.dispatcher
        .dispatchTool(ctx, id, args, {
          signal: ctx.signal,
          caller: 'code',
          envelope: WHOLE,
          onProgress: progress.onProgress,
          ...(values.timeout === undefined
            ? {}
            : {
                timeoutMs:
                  wholeNumber(values, 'timeout', { min: 1, max: 3_600, fallback: 60 }) * 1000,
              }),
        })
        .finally(progress.done);
      if (!response.ok) {
        // A misspelt tool: the one meant, when one of the server's tools is close.
        const { serverId, toolName } = parseToolId(id);
        const meant =
          response.error.code === ErrorCode.ToolNotFound
            ? meantTool(
                toolName,
                (await stack.registry.storedTools(ctx, serverId)).map((tool) => tool.name),
              )
            : undefined;
        throw new McpAgentError(
          response.error.code,
          meant === undefined
            ? response.error.message
            : `no tool ${toolName} on ${serverId}; did you mean ${serverId}.${meant}?`,
          { details: response.error.details },
        );
      }
      // Media are written to files: a terminal gets their paths, not pages of base64.
      const { value, files } = writeMediaFiles(response.data, {
        name: parseToolId(id).toolName,
        ...(typeof values.out === 'string' ? { out: values.out } : {}),
      });
      out(typeof value === 'string' ? value : JSON.stringify(value, null, 2), {
        ...response,
        data: value,
        ...(files.length === 0 ? {} : { files }),
      });
      return;
    }
    default:
      usage(`unknown "tools ${sub ?? ''}"`, 'tools');
  }
};

// One block per query (no heading when there is one): its tools with their relevance to it and
// description, or why there is no good match.
function searchText(answer: ToolSearchAnswer): string {
  const tools = new Map(answer.servers.flatMap((s) => s.tools).map((t) => [t.tool_id, t]));
  const single = answer.queries.length === 1;
  const blocks = answer.queries.map((query) => {
    const heading = single ? [] : [`"${query.query}"`];
    const rows = (query.no_good_match ? (query.closest ?? []) : query.matches).map(
      ({ tool_id, relevance }) => [
        tool_id,
        relevance.toFixed(2),
        firstLine(tools.get(tool_id)?.description ?? '', 70),
      ],
    );
    if (query.no_good_match) {
      // The closest tools keep their descriptions: a person judges whether one does it.
      const said = 'no good match: no connected tool says this in these words.';
      const closest = rows.length === 0 ? '' : `\nClosest:\n${table(rows).replace(/^/gm, '  ')}`;
      return [...heading, `${said}${closest}`];
    }
    const text = table(rows);
    return [...heading, single ? text : text.replace(/^/gm, '  ')];
  });
  return [...blocks.map((lines) => lines.join('\n')), ...(answer.warnings ?? [])].join('\n');
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

// Servers without a stored catalog are not searched: say so, with each one's last real state
// (never connected, or how its last attempt failed), rather than search without them.
async function noteUndiscovered(stack: AgentStack, ctx: AgentContext): Promise<void> {
  const missing = (await stack.registry.availability(ctx)).active.filter(
    (server) => server.toolCount === null,
  );
  const never = missing.filter((s) => s.lastError === null).map((s) => s.id);
  if (never.length > 0)
    process.stderr.write(
      `note: ${never.join(', ')} ${never.length === 1 ? 'has' : 'have'} not been connected yet, so ${never.length === 1 ? 'its tools are' : 'their tools are'} not included; "mcp-agent servers status" connects ${never.length === 1 ? 'it' : 'them'}.\n`,
    );
  for (const server of missing.filter((s) => s.lastError !== null))
    process.stderr.write(failedNote(server));
}

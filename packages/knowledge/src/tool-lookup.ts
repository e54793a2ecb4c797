import {
  McpAgentError,
  PolicyDeniedError,
  parseToolId,
  type AgentContext,
  type ParsedToolId,
  type ToolNotFoundError,
} from '@mcp-agent/core';
import { toToolSpec, type Registry } from '@mcp-agent/registry';
import { describeTool, type DeepViewOptions, type DeepViewTool } from './views/deep-view.js';

/** What `Knowledge.deepView` answers: the views of the ids found, an error for each other. */
export interface ToolLookup {
  /** The views of the ids found, in the order asked. */
  tools: DeepViewTool[];
  /** One error per id not found, with suggestions. */
  errors: McpAgentError[];
}

/**
 * The deep views of `toolIds` from the tenant's stored catalogs, in the order asked. An id of a
 * server the tenant has but may not use in this request is a `PolicyDeniedError` naming why;
 * an id it does not have (or that does not parse) is what `notFound` makes of it.
 */
export async function lookUpTools(
  registry: Registry,
  ctx: AgentContext,
  toolIds: readonly string[],
  options: DeepViewOptions,
  notFound: (id: string) => Promise<ToolNotFoundError>,
): Promise<ToolLookup> {
  const tools: DeepViewTool[] = [];
  const errors: McpAgentError[] = [];
  const availability = await registry.availability(ctx);
  // Each id parsed once: a tool id, a server the tenant has outside this request, or nothing.
  const parsed = toolIds.map((raw): ParsedToolId | McpAgentError | undefined => {
    try {
      const id = parseToolId(raw);
      const server = availability.get(id.serverId);
      if (server === undefined) return undefined;
      return server.excludedBy === undefined
        ? id
        : new PolicyDeniedError(`${id.id} is not available in this request.`, {
            details: { toolId: id.id, reason: server.excludedBy },
          });
    } catch {
      return undefined;
    }
  });
  const catalogs = await registry.storedToolsOf(ctx, [
    ...new Set(parsed.flatMap((id) => (id === undefined || isError(id) ? [] : [id.serverId]))),
  ]);
  for (const [index, id] of parsed.entries()) {
    if (id !== undefined && isError(id)) {
      errors.push(id);
      continue;
    }
    const tool = id && catalogs.get(id.serverId)?.find((t) => t.name === id.toolName);
    if (id !== undefined && tool !== undefined)
      tools.push(describeTool(toToolSpec(id.serverId, tool.raw), options));
    else errors.push(await notFound(id?.id ?? String(toolIds[index])));
  }
  return { tools, errors };
}

function isError(value: ParsedToolId | McpAgentError): value is McpAgentError {
  return McpAgentError.isInstance(value);
}

import type { Attributes } from '@mcp-agent/core';

/**
 * What a meta-tool's span says about its input: the tool it calls, how many ids it describes,
 * the size of the code it runs. Never the query, the arguments or the code themselves.
 */
export function metaToolAttributes(name: string, input: unknown): Attributes {
  const value = (input ?? {}) as Record<string, unknown>;
  switch (name) {
    case 'call_tool':
      return typeof value.tool_id === 'string' ? { 'mcp_agent.tool_id': value.tool_id } : {};
    case 'describe_tools':
      return Array.isArray(value.tool_ids)
        ? { 'mcp_agent.tool_ids': value.tool_ids.slice(0, 10).map(String) }
        : {};
    case 'search_tools':
      return typeof value.limit === 'number' ? { 'mcp_agent.search.limit': value.limit } : {};
    case 'run_code':
      return typeof value.code === 'string'
        ? {
            'mcp_agent.code.chars': value.code.length,
            'mcp_agent.code.language':
              value.language === 'typescript' ? 'typescript' : 'javascript',
          }
        : {};
    case 'query_server':
      return typeof value.server_id === 'string' ? { 'mcp_agent.server_id': value.server_id } : {};
    default:
      return {};
  }
}

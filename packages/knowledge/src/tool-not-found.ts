import { clip, ToolNotFoundError } from '@mcp-agent/core';

/**
 * The error for a tool id the tenant does not have, saying "did you mean" with the closest ids:
 * `search` looks the id's tool name (the part after the server) up among the tool ids the
 * tenant may use, best first. The id is shown cut to 80 characters: it is the caller's input.
 */
export async function toolNotFound(
  id: string,
  search: (name: string) => readonly string[] | Promise<readonly string[]>,
): Promise<ToolNotFoundError> {
  const name = id.includes('.') ? id.slice(id.indexOf('.') + 1) : id;
  const suggestions = name.trim() === '' ? [] : [...(await search(name))];
  const shown = clip(id, 80);
  return new ToolNotFoundError(
    `Unknown tool "${shown}".${suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : ''} Use search_tools to find tool ids.`,
    { details: { toolId: shown, suggestions } },
  );
}

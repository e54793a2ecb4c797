import type { AgentContext } from '@mcp-agent/core';
import type { Registry } from '@mcp-agent/registry';

/** A tool as a server lists it: a name, a description and an empty object schema. */
export const listedTool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

/**
 * The servers the search tests search (github, slack, calendar), each added for `ctx`'s user
 * with its catalog and recorded ready.
 */
export async function addSearchServers(registry: Registry, ctx: AgentContext): Promise<void> {
  const servers = {
    github: [
      listedTool('list_issues', 'List the open issues of a repository'),
      listedTool('create_issue', 'Create an issue in a repository'),
    ],
    slack: [listedTool('post_message', 'Post a message to a Slack channel')],
    calendar: [listedTool('create_event', 'Create an event in a calendar')],
  };
  for (const [id, tools] of Object.entries(servers)) {
    await registry.addServer(ctx, {
      id,
      transport: 'streamable-http',
      url: `https://${id}.example/mcp`,
    });
    await registry.replaceCatalog(ctx, id, tools);
    await registry.recordState(ctx, id, { status: 'ready' });
  }
}

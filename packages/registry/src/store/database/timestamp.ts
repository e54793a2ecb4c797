import type { AgentContext } from '@mcp-agent/core';

/** The context's clock as an ISO 8601 UTC string, the one timestamp format of the schema. */
export function timestamp(ctx: AgentContext): string {
  return new Date(ctx.clock.now()).toISOString();
}

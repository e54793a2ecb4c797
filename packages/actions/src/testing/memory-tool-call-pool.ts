import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentContext } from '@mcp-agent/core';
import type { ToolCallPool } from '../dispatcher.js';

/** How the double answers one call: a result, or a function of the call giving one. */
export type MemoryToolAnswer =
  | CallToolResult
  | ((
      args: Record<string, unknown>,
      ctx: AgentContext,
    ) => CallToolResult | Promise<CallToolResult>);

/** One call the double received. */
export interface MemoryToolCall {
  readonly userId: string;
  readonly serverId: string;
  readonly toolName: string;
  readonly arguments: Record<string, unknown>;
}

/**
 * A `ToolCallPool` in memory: answers `<server>.<tool>` from a table and records every call, so
 * tests of the layers above the pool dispatch without starting an MCP server. A tool missing
 * from the table answers as a server would: an error result naming it.
 */
export class MemoryToolCallPool implements ToolCallPool {
  readonly calls: MemoryToolCall[] = [];

  constructor(private readonly answers: Readonly<Record<string, MemoryToolAnswer>>) {}

  async callTool(
    ctx: AgentContext,
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> {
    this.calls.push({ userId: ctx.userId, serverId, toolName, arguments: args });
    const answer = this.answers[`${serverId}.${toolName}`];
    if (answer === undefined)
      return {
        isError: true,
        content: [{ type: 'text', text: `no tool ${serverId}.${toolName}` }],
      };
    return typeof answer === 'function' ? answer(args, ctx) : answer;
  }
}

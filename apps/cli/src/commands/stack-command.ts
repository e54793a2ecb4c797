import type { AgentContext } from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import type { Invocation } from '../invocation.js';

/**
 * A command with subcommands over the user's stack (`servers`, `tools`, `resources`, `usage`):
 * its invocation, the stack opened for it, the user's context, then the subcommand and the
 * words after it.
 */
export type StackCommand = (
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  sub: string | undefined,
  rest: string[],
) => Promise<void>;

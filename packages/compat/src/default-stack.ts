import { ConfigError, createContext, type AgentContext } from '@mcp-agent/core';
import { openAgentStack, type AgentStack, type OpenAgentStackOptions } from '@mcp-agent/agent';

// The older API was global: one registry per process. The shims keep that one default stack.
let stack: AgentStack | undefined;

/** Opens (once) the process-wide stack the shims use. */
export async function openDefaultStack(options: OpenAgentStackOptions = {}): Promise<AgentStack> {
  stack ??= await openAgentStack(options);
  return stack;
}

/** The stack opened by `initRegistry`; a `ConfigError` before it. */
export function defaultStack(): AgentStack {
  if (stack === undefined)
    throw new ConfigError(
      'Call initRegistry() before the other compat functions (or move to openAgentStack()).',
    );
  return stack;
}

/** Closes the default stack (tests, shutdown). */
export async function closeDefaultStack(): Promise<void> {
  await stack?.close();
  stack = undefined;
}

/** The context of a legacy call, which passed only a user id. */
export function contextFor(userId: string): AgentContext {
  return createContext({ userId });
}

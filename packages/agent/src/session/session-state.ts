import type { ToolId } from '@mcp-agent/core';
import type { Dispatcher } from '@mcp-agent/actions';
import type { Sandbox } from '@mcp-agent/execution';
import type { Knowledge } from '@mcp-agent/knowledge';
import type { SharedDescribed } from './shared-described.js';

/**
 * What a session charges to its task's budget: the tool calls made (by call_tool, from code,
 * reading a result or a resource), and the limits a script runs under. Declared here so the
 * session needs nothing of the planner; the planner's `BudgetTracker` is one.
 */
export interface SessionBudget {
  /** Tool calls still allowed. */
  readonly remainingToolCalls: number;
  /** Milliseconds left before the task's wall-time limit. */
  readonly remainingMs: number;
  /** Counts tool calls; throws `BudgetExceededError` when past the limit. */
  addToolCalls(count?: number): void;
}

/** What the meta-tools of one session share: the engine, the budget, and what was described. */
export interface SessionState {
  readonly knowledge: Knowledge;
  readonly dispatcher: Dispatcher;
  readonly sandbox: Sandbox | undefined;
  /** The task's budget; absent in a gateway session, where every call is the client's own. */
  readonly budget: SessionBudget | undefined;
  /** The reader sees images: results show those within the image limits (see the README). */
  readonly images: boolean;
  /** Tools whose deep view was loaded in this session: the only ones that may be called. */
  readonly described: Set<string>;
  /** The server of each `resource_link` URI a result of this session gave (oldest first). */
  readonly links: Map<string, string>;
  /** Where the described set is shared with other copies of the session; absent when not. */
  readonly shared: SharedDescribed | undefined;
  /** Notes a tool that was called successfully. */
  used(toolId: ToolId): void;
}

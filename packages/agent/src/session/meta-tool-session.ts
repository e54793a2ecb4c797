import { ErrorCode, toMcpAgentError, type ToolId } from '@mcp-agent/core';
import type { Dispatcher } from '@mcp-agent/actions';
import type { Sandbox } from '@mcp-agent/execution';
import type { Knowledge } from '@mcp-agent/knowledge';
import type { BudgetTracker } from '../planner/budget.js';
import {
  listMetaTool,
  parseMetaToolInput,
  type MetaTool,
  type MetaToolCall,
  type MetaToolListing,
} from './meta-tool.js';
import { callTool } from './meta-tools/call-tool.js';
import { describeTools } from './meta-tools/describe-tools.js';
import { readResult } from './meta-tools/read-result.js';
import { runCode } from './meta-tools/run-code.js';
import { searchTools } from './meta-tools/search-tools.js';
import { failed, type Observation } from './observation.js';
import type { SessionState } from './session-state.js';

/** Options of {@link MetaToolSession}. */
export interface MetaToolSessionOptions {
  readonly knowledge: Knowledge;
  readonly dispatcher: Dispatcher;
  /** Without one, run_code answers that it is unavailable. */
  readonly sandbox?: Sandbox;
  /** The task's budget; a gateway session has none. */
  readonly budget?: BudgetTracker;
  /** Meta-tools of one surface only: query_connector (agent), execute_task (gateway). */
  readonly extraTools?: readonly MetaTool<unknown>[];
}

/**
 * The discovery-first meta-tools for one task or one gateway session: search_tools,
 * describe_tools, call_tool, run_code, read_result (and the extras a surface adds). It owns what was
 * described — a tool is called, directly or from code, only after its deep view was loaded here —
 * and the one error payload. The agent loop and the gateway both drive it; each call runs in
 * its request's context.
 */
export class MetaToolSession {
  readonly #tools: ReadonlyMap<string, MetaTool<unknown>>;
  readonly #state: SessionState;
  readonly #used = new Set<ToolId>();

  constructor(options: MetaToolSessionOptions) {
    this.#state = {
      knowledge: options.knowledge,
      dispatcher: options.dispatcher,
      sandbox: options.sandbox,
      budget: options.budget,
      described: new Set(),
      used: (toolId) => this.#used.add(toolId),
    };
    const tools = [
      searchTools(this.#state),
      describeTools(this.#state),
      callTool(this.#state),
      runCode(this.#state),
      readResult(this.#state),
      ...(options.extraTools ?? []),
    ] as MetaTool<unknown>[];
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
  }

  /** The meta-tools as a model or an MCP client lists them. */
  get tools(): MetaToolListing[] {
    return [...this.#tools.values()].map(listMetaTool);
  }

  /** Tools called successfully in this session, in the order first used. */
  get toolsUsed(): ToolId[] {
    return [...this.#used];
  }

  /** Notes a tool called successfully on this session's behalf (by a connector sub-agent). */
  markUsed(toolId: ToolId): void {
    this.#used.add(toolId);
  }

  /** Tools described in this session. */
  get described(): ReadonlySet<string> {
    return this.#state.described;
  }

  /**
   * Runs one meta-tool. Unknown names, invalid input and every failure of the work come back as
   * an error observation the caller can act on; only the end of the task — its budget, or
   * cancellation — is thrown.
   */
  async run(name: string, input: unknown, call: MetaToolCall): Promise<Observation> {
    const tool = this.#tools.get(name);
    if (tool === undefined) {
      return failed({
        code: ErrorCode.InvalidArguments,
        message: `Unknown command "${String(name).slice(0, 80)}". Use one of: ${[...this.#tools.keys()].join(', ')}.`,
      });
    }
    const parsed = parseMetaToolInput(tool, input);
    if (!parsed.ok) return failed({ code: ErrorCode.InvalidArguments, message: parsed.message });
    try {
      return await tool.run(parsed.value, call);
    } catch (thrown) {
      const error = toMcpAgentError(thrown);
      if (
        error.code === ErrorCode.BudgetExceeded ||
        error.code === ErrorCode.Cancelled ||
        call.ctx.signal.aborted
      )
        throw thrown;
      return failed(error);
    }
  }
}

import {
  ErrorCode,
  inSpan,
  isTracing,
  markSpanFailed,
  promised,
  toMcpAgentError,
  type Span,
  type ToolId,
} from '@mcp-agent/core';
import type { Dispatcher } from '@mcp-agent/actions';
import type { Sandbox } from '@mcp-agent/execution';
import type { Knowledge } from '@mcp-agent/knowledge';
import { InvalidToolInput } from '../input/invalid-tool-input.js';
import { metaToolAttributes } from '../telemetry/meta-tool-span.js';
import {
  listMetaTool,
  parseMetaToolInput,
  type MetaTool,
  type MetaToolCall,
  type MetaToolListing,
} from './meta-tool.js';
import { callTool } from './meta-tools/call-tool.js';
import { describeTools } from './meta-tools/describe-tools.js';
import { readResource } from './meta-tools/read-resource.js';
import { readResult } from './meta-tools/read-result.js';
import { runCode } from './meta-tools/run-code.js';
import { searchTools } from './meta-tools/search-tools.js';
import { failed, type Observation } from './observation.js';
import type { SessionBudget, SessionState } from './session-state.js';
import type { DirectTool } from './direct-tool.js';
import type { SharedDescribed } from './shared-described.js';

/** Options of {@link MetaToolSession}. */
export interface MetaToolSessionOptions {
  /** Answers search_tools and describe_tools, and loads the deep views a call needs first. */
  readonly knowledge: Knowledge;
  /** Runs call_tool, the direct tools and run_code's tool calls, and keeps results to read. */
  readonly dispatcher: Dispatcher;
  /** Without one, run_code answers that it is unavailable. */
  readonly sandbox?: Sandbox;
  /** The task's budget; a gateway session has none. */
  readonly budget?: SessionBudget;
  /**
   * Whether the reader sees images (a model that reads them; an MCP client): results then show
   * images within the dispatcher's image limits beside their data; default true.
   */
  readonly images?: boolean;
  /** Meta-tools of one surface only: query_server (agent), execute_task (gateway). */
  readonly extraTools?: readonly MetaTool<unknown>[];
  /** The meta-tools offered, by name (a tool mode's surface); all when absent. */
  readonly metaTools?: readonly string[];
  /** Server tools offered under their own names, each run as call_tool runs it. */
  readonly direct?: readonly DirectTool[];
  /** Tools that may be called without describe_tools (their declarations were given). */
  readonly described?: readonly string[];
  /**
   * Where the described tools are shared with other copies of this session (a gateway session
   * served by several processes); see `SharedDescribed`. Absent: this session is the only copy.
   */
  readonly shared?: SharedDescribed;
}

/**
 * The discovery-first meta-tools for one task or one gateway session: search_tools,
 * describe_tools, call_tool, run_code, read_result, read_resource (and the extras a surface adds). It owns what was
 * described — a tool is called, directly or from code, only after its deep view was loaded here —
 * and the one error payload. The agent loop and the gateway both drive it; each call runs in
 * its request's context.
 *
 * @example
 * ```ts
 * // What a gateway does for one client session: list the tools, then run what the client calls.
 * const session = new MetaToolSession({ knowledge, dispatcher, sandbox });
 * session.setSearchScope(searchScope(await knowledge.manifest(ctx)));
 * const listing = session.tools; // answer tools/list with these
 * const observation = await session.run('search_tools', { query: 'open issues' }, { ctx });
 * if (!observation.ok) console.error(observation.value); // {"error": {"code", "message"}}
 * ```
 */
export class MetaToolSession {
  readonly #tools: ReadonlyMap<string, MetaTool<unknown>>;
  readonly #state: SessionState;
  readonly #used = new Set<ToolId>();
  readonly #direct: ReadonlyMap<string, DirectTool>;
  readonly #call: MetaTool<unknown>;
  // What search_tools searches (`searchScope`), appended to its description; '' until set.
  #searchScope = '';

  constructor(options: MetaToolSessionOptions) {
    this.#state = {
      knowledge: options.knowledge,
      dispatcher: options.dispatcher,
      sandbox: options.sandbox,
      budget: options.budget,
      images: options.images ?? true,
      described: new Set([
        ...(options.described ?? []),
        ...(options.direct ?? []).map((tool) => tool.toolId),
      ]),
      links: new Map(),
      shared: options.shared,
      used: (toolId) => this.#used.add(toolId),
    };
    // A direct tool runs as call_tool does, whether or not call_tool is offered.
    this.#call = callTool(this.#state) as MetaTool<unknown>;
    const tools = [
      searchTools(this.#state),
      describeTools(this.#state),
      this.#call,
      runCode(this.#state),
      readResult(this.#state),
      readResource(this.#state),
      ...(options.extraTools ?? []),
    ] as MetaTool<unknown>[];
    const offered = options.metaTools === undefined ? undefined : new Set(options.metaTools);
    this.#tools = new Map(
      tools.filter((tool) => offered?.has(tool.name) ?? true).map((tool) => [tool.name, tool]),
    );
    this.#direct = new Map((options.direct ?? []).map((tool) => [tool.name, tool]));
  }

  /** The meta-tools as a model or an MCP client lists them. */
  get tools(): MetaToolListing[] {
    return [
      ...[...this.#tools.values()].map((tool) => {
        const listing = listMetaTool(tool);
        return tool.name === 'search_tools' && this.#searchScope !== ''
          ? { ...listing, description: `${listing.description} ${this.#searchScope}` }
          : listing;
      }),
      ...[...this.#direct.values()].map(({ name, description, inputSchema }) => ({
        name,
        description,
        inputSchema,
      })),
    ];
  }

  /**
   * Sets what search_tools says it searches (`searchScope(manifest)`); true when it changed, so
   * that a surface that listed the tools can say they changed (`notifications/tools/list_changed`).
   */
  setSearchScope(scope: string): boolean {
    if (scope === this.#searchScope) return false;
    this.#searchScope = scope;
    return true;
  }

  /** Tools called successfully in this session, in the order first used. */
  get toolsUsed(): ToolId[] {
    return [...this.#used];
  }

  /** Notes a tool called successfully on this session's behalf (by a server sub-agent). */
  markUsed(toolId: ToolId): void {
    this.#used.add(toolId);
  }

  /** Tools described in this session. */
  get described(): ReadonlySet<string> {
    return this.#state.described;
  }

  /**
   * Runs one meta-tool. Unknown names, invalid input and every failure of the work, a quota
   * too, come back as an error observation (its `error` whole) for the caller to act on; only
   * the end of the task — its budget, or cancellation — is thrown.
   *
   * @throws BudgetExceededError (`BUDGET_EXCEEDED`) when the task's budget is spent.
   * @throws CancelledError (`CANCELLED`), or the abort's reason, once `call.ctx.signal` aborts.
   */
  run(name: string, input: unknown, call: MetaToolCall): Promise<Observation> {
    // Without a tracer, no span and no frame around the call.
    if (!isTracing()) return this.#run(name, input, call, undefined);
    // One span per meta-tool call, a child of the loop step or the gateway request that made it.
    const known = this.#tools.has(name) || this.#direct.has(name);
    return inSpan(known ? `mcp_agent.${name}` : 'mcp_agent.unknown_command', {}, async (span) => {
      const observation = await this.#run(name, input, call, span);
      if (!observation.ok) markSpanFailed(span, errorCodeOf(observation));
      return observation;
    });
  }

  // Not async: a call's answer passes one handler here (the one that keeps a failure a value).
  #run(
    name: string,
    input: unknown,
    call: MetaToolCall,
    span: Span | undefined,
  ): Promise<Observation> {
    const direct = this.#direct.get(name);
    const tool = direct === undefined ? this.#tools.get(name) : this.#call;
    if (tool === undefined) {
      return Promise.resolve(
        failed({
          code: ErrorCode.InvalidArguments,
          message: `Unknown command "${String(name).slice(0, 80)}". Use one of: ${[...this.#tools.keys(), ...this.#direct.keys()].join(', ')}.`,
        }),
      );
    }
    if (input instanceof InvalidToolInput) {
      return Promise.resolve(
        failed({
          code: ErrorCode.InvalidArguments,
          message: `The arguments of ${name} are not valid JSON (${input.reason.slice(0, 200)}). Send the call again with one JSON object as its arguments.`,
        }),
      );
    }
    const parsed = parseMetaToolInput(
      tool,
      direct === undefined ? input : { tool_id: direct.toolId, arguments: input ?? {} },
    );
    if (!parsed.ok)
      return Promise.resolve(failed({ code: ErrorCode.InvalidArguments, message: parsed.message }));
    if (span?.isRecording() === true) span.setAttributes(metaToolAttributes(name, parsed.value));
    return promised(() => tool.run(parsed.value, call)).catch((thrown: unknown) => {
      const error = toMcpAgentError(thrown);
      if (
        error.code === ErrorCode.BudgetExceeded ||
        error.code === ErrorCode.Cancelled ||
        call.ctx.signal.aborted
      )
        throw thrown;
      // Every other failure, a quota too, is the call's outcome: its reader decides what it means.
      return failed(error);
    });
  }
}

// The code of an error observation (`{"error": {"code"}}`), or why there is none.
function errorCodeOf(observation: Observation): string {
  const value = observation.value as {
    error?: { code?: unknown };
    errors?: { code?: unknown }[];
  } | null;
  const code = value?.error?.code ?? value?.errors?.[0]?.code;
  return typeof code === 'string' ? code : 'NOT_OK';
}

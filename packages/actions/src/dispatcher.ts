import {
  InvalidArgumentsError,
  NotReadyError,
  parseToolId,
  PolicyDeniedError,
  ProviderNotFoundError,
  ToolExecutionError,
  ToolNotFoundError,
  toMcpAgentError,
  UnauthorizedError,
  type ActionResponse,
  type AgentContext,
  type McpAgentError,
  type ToolId,
} from '@mcp-agent/core';
import {
  processObservation,
  type EnvelopeLimits,
  type ObservationStore,
} from '@mcp-agent/execution';
import type { ConnectionPool, Registry } from '@mcp-agent/registry';
import { applyMapping, type ProviderMappings } from './parameter-mapping.js';
import { normalizeResult } from './normalize-result.js';
import { SchemaValidator } from './schema-validator.js';
import { chain, type Caller, type DispatchLink, type ToolCall } from './tool-call.js';
import { ToolResolver, type ToolVerdict } from './tool-resolver.js';

/**
 * What the dispatcher needs of the connection pool: calls, and word of changed tool lists. A
 * `ConnectionPool` is one; a unit test passes a double that answers in memory.
 */
export type ToolCallPool = Pick<ConnectionPool, 'callTool'> & Partial<Pick<ConnectionPool, 'on'>>;

/** Options of {@link Dispatcher}. */
export interface DispatcherOptions {
  readonly registry: Registry;
  readonly pool: ToolCallPool;
  /** Middleware, outermost first: logging, metrics, policy, rate limit, changed-tool hold… */
  readonly links?: readonly DispatchLink[];
  readonly mappings?: ProviderMappings;
  readonly observations?: ObservationStore;
  readonly envelope?: Partial<EnvelopeLimits>;
  /** Largest accepted arguments, as JSON; default 1 MB. */
  readonly maxArgumentBytes?: number;
}

/** Options of one dispatch. */
export interface DispatchOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly caller?: Caller;
  /** Receives the server's progress notifications (a gateway forwards them to its client). */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Envelope limits for this call only. */
  readonly envelope?: Partial<EnvelopeLimits>;
}

/** Which tool: a tool id, or provider and tool name. */
export type DispatchTarget = string | { readonly provider: string; readonly tool: string };

const MAX_DEPTH = 64;

/**
 * The only road from the agent (and the sandbox) to a tool: resolve and check availability,
 * map legacy parameters, validate against the tool's input schema (no call when invalid), run
 * the middleware chain, call through the pooled session, normalise the MCP result, and slim it
 * through the envelope. Never throws: every failure is an `ActionResponse` with a stable code.
 */
export class Dispatcher {
  readonly #options: DispatcherOptions;
  readonly #validator = new SchemaValidator();
  readonly #resolver: ToolResolver;
  readonly #run: (ctx: AgentContext, call: ToolCall) => ReturnType<ConnectionPool['callTool']>;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#resolver = new ToolResolver(options.registry, this.#validator, options.pool);
    this.#run = chain(options.links ?? [], (ctx, call) =>
      options.pool.callTool(ctx, call.providerId, call.toolName, call.arguments, {
        signal: call.signal,
        ...(call.timeoutMs === undefined ? {} : { timeoutMs: call.timeoutMs }),
        ...(call.onProgress === undefined ? {} : { onProgress: call.onProgress }),
      }),
    );
  }

  /** Dispatches one call; see the class comment. */
  async dispatchTool(
    ctx: AgentContext,
    target: DispatchTarget,
    payload: unknown,
    options: DispatchOptions = {},
  ): Promise<ActionResponse> {
    const started = performance.now();
    let toolId = (
      typeof target === 'string' ? target : `${target.provider}.${target.tool}`
    ) as ToolId;
    try {
      const parsed = parseToolId(toolId);
      toolId = parsed.id;
      const { tool, verdict } = await this.#resolver.resolve(
        ctx,
        parsed.providerId,
        parsed.toolName,
      );
      if (tool === undefined) throw unavailable(toolId, verdict);
      const mapping = this.#options.mappings?.[parsed.providerId]?.[parsed.toolName];
      const args = applyMapping(this.#checkShape(payload), mapping);
      if (tool.validateInput instanceof Error) {
        throw new ToolExecutionError(
          `${toolId} has an input schema that does not compile: ${tool.validateInput.message}`,
          {
            details: { toolId },
          },
        );
      }
      const issues = this.#validator.issues(tool.validateInput, args);
      if (issues.length > 0) {
        throw new InvalidArgumentsError(
          `Invalid arguments for ${toolId}: ${issues.map((i) => `${i.path} expected ${i.expected}, got ${i.got}`).join('; ')}. Read the tool with describe_tools and call it again.`,
          { details: { toolId, issues: issues.map((i) => ({ ...i })) } },
        );
      }
      const result = await this.#run(ctx, {
        toolId,
        providerId: parsed.providerId,
        toolName: parsed.toolName,
        arguments: args,
        spec: tool.spec,
        contentHash: tool.contentHash,
        caller: options.caller ?? 'model',
        signal: options.signal ?? ctx.signal,
        timeoutMs: options.timeoutMs,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
      const data = normalizeResult(toolId, result, tool, this.#validator);
      const observation = processObservation(ctx, data, {
        limits: { ...this.#options.envelope, ...options.envelope },
        ...(this.#options.observations === undefined ? {} : { store: this.#options.observations }),
      });
      return {
        ok: true,
        data: observation.data,
        meta: {
          toolId,
          durationMs: elapsed(started),
          truncated: observation.truncated,
          ...(observation.observationId === undefined
            ? {}
            : { observationId: observation.observationId }),
        },
      };
    } catch (thrown) {
      const error = fromMcp(thrown, toolId);
      return {
        ok: false,
        error: { code: error.code, message: error.message, details: error.details },
        meta: { toolId, durationMs: elapsed(started), truncated: false },
      };
    }
  }

  // Arguments must be a plain JSON object of bounded size and depth before schema validation.
  #checkShape(payload: unknown): Record<string, unknown> {
    const value = payload ?? {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidArgumentsError(
        `Tool arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}.`,
      );
    }
    if (depthOf(value) > MAX_DEPTH) {
      throw new InvalidArgumentsError(`Tool arguments nest deeper than ${MAX_DEPTH} levels.`);
    }
    let size: number;
    try {
      size = Buffer.byteLength(JSON.stringify(value), 'utf8');
    } catch {
      throw new InvalidArgumentsError(
        'Tool arguments are not serialisable JSON (a cycle or a BigInt).',
      );
    }
    const max = this.#options.maxArgumentBytes ?? 1_000_000;
    if (size > max)
      throw new InvalidArgumentsError(
        `Tool arguments are ${size} bytes as JSON; at most ${max} are accepted.`,
      );
    return value as Record<string, unknown>;
  }
}

function unavailable(toolId: string, availability: ToolVerdict): McpAgentError {
  if (availability.available) {
    return new ToolNotFoundError(`Unknown tool ${toolId}. Use search_tools to find tool ids.`, {
      details: { toolId },
    });
  }
  const details = { toolId, reason: availability.code };
  switch (availability.code) {
    case 'not_connected':
      return new ProviderNotFoundError(availability.reason, { details });
    case 'tool_unknown':
      return new ToolNotFoundError(`${availability.reason} Use search_tools to find tool ids.`, {
        details,
      });
    case 'needs_auth':
      return new UnauthorizedError(availability.reason, { details });
    case 'disabled':
    case 'disabled_in_thread':
    case 'not_allowed':
      return new PolicyDeniedError(availability.reason, { details });
    default:
      return new NotReadyError(availability.reason, { details });
  }
}

// MCP protocol errors (timeouts, closed connections, server JSON-RPC errors) get our codes.
function fromMcp(thrown: unknown, toolId: string): McpAgentError {
  const code = (thrown as { code?: unknown } | null)?.code;
  if (typeof code === 'number') {
    const message = (thrown as Error).message ?? 'MCP error';
    if (code === -32001)
      return toMcpAgentError(Object.assign(new Error(message), { name: 'TimeoutError' }));
    return new ToolExecutionError(`${toolId} failed: ${message}`, {
      cause: thrown,
      details: { toolId, mcpCode: code },
    });
  }
  return toMcpAgentError(thrown);
}

function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    max = Math.max(max, depth);
    if (max > MAX_DEPTH) return max;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

import {
  InvalidArgumentsError,
  parseToolId,
  renamedOption,
  ToolExecutionError,
  type ActionResponse,
  type AgentContext,
  type JsonText,
  type JsonValue,
  type ToolId,
} from '@mcp-agent/core';
import {
  MemoryObservationStore,
  processObservation,
  type EnvelopeLimits,
  type ImageLimits,
  type ObservationStore,
  type ShapedResult,
} from '@mcp-agent/execution';
import type { ConnectionPool, Registry, ResourceListing } from '@mcp-agent/registry';
import { applyMapping, type ServerMappings } from './parameter-mapping.js';
import { elapsed, fromMcp, unavailable } from './dispatch-errors.js';
import { readKeptResult, wholeKeptResult, type ReadResultOptions } from './observation-reads.js';
import {
  carryJson,
  checkArguments,
  checkResultSize,
  DEFAULT_MAX_RESULT_BYTES,
} from './payload-limits.js';
import {
  checkResourceUri,
  checkServer,
  toServerResources,
  type ServerResources,
} from './resource-reads.js';
import { operationCall, reachServer, type OperationPool } from './server-operations.js';
import { checkToolResult, modelContent, wholeContent } from './normalize-result.js';
import { SchemaValidator } from './schema-validator.js';
import { chain, type Caller, type DispatchLink, type ToolCall } from './tool-call.js';
import { ToolResolver } from './tool-resolver.js';

/**
 * What the dispatcher needs of the connection pool: its user-facing operations, and word of
 * changed tool lists. A `ConnectionPool` is one; a unit test passes a double.
 */
export type ToolCallPool = OperationPool & Partial<Pick<ConnectionPool, 'on'>>;

/** Options of {@link Dispatcher}. */
export interface DispatcherOptions {
  /** Where tools, servers and the tenant's availability are read. */
  readonly registry: Registry;
  /** The pooled connections every call goes through. */
  readonly pool: ToolCallPool;
  /** Middleware, outermost first: logging, metrics, policy, rate limit, changed-tool hold… */
  readonly links?: readonly DispatchLink[];
  /** Legacy parameter names and defaults to apply before validation, by server and tool. */
  readonly mappings?: ServerMappings;
  /** Keeps whole results for `readResult`; default a `MemoryObservationStore` of its defaults. */
  readonly observations?: ObservationStore;
  /** The budget of what reaches a model; default 8,000 tokens (see @mcp-agent/execution). */
  readonly envelope?: Partial<EnvelopeLimits>;
  /** What images one observation may show a reader that sees them (see @mcp-agent/execution). */
  readonly images?: Partial<ImageLimits>;
  /** Largest accepted arguments, as JSON; default 1 MB. */
  readonly maxArgumentBytes?: number;
  /**
   * Largest result one call may return, in UTF-8 bytes of JSON, to code or to the model (which
   * sees it cut, with the whole kept for `readResult`); default 10 MB. Larger ones fail.
   */
  readonly maxResultBytes?: number;
}

export type { ReadResultOptions } from './observation-reads.js';

/** Options of one dispatch. */
export interface DispatchOptions {
  /** Aborts the call (and the server's work, by MCP cancellation). */
  readonly signal?: AbortSignal;
  /** The call's deadline; default the server's own. */
  readonly timeoutMs?: number;
  /** Who asked: the `model` gets the envelope, `code` the whole result. */
  readonly caller?: Caller;
  /** Receives the server's progress notifications (a gateway forwards them to its client). */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Envelope limits for this call only (a model's call; code gets whole results). */
  readonly envelope?: Partial<EnvelopeLimits>;
  /** The reader sees images: those within the image limits come back in `images`. */
  readonly images?: boolean;
}

/** Which tool: a tool id, or server and tool name. */
export type DispatchTarget =
  | string
  | {
      /** The server's id. */
      readonly server: string;
      /** The tool's name on that server. */
      readonly tool: string;
    };

/**
 * The only road from the agent (and the sandbox) to a tool: resolve and check availability,
 * map legacy parameters, validate against the tool's input schema (no call when invalid), run
 * the middleware chain, call through the pooled session, normalise the MCP result, check its
 * size, and hand it whole to code or through the envelope to the model (the whole kept for
 * `readResult`). Never throws: every failure is an `ActionResponse` with a stable code.
 */
export class Dispatcher {
  readonly #options: DispatcherOptions;
  readonly #observations: ObservationStore;
  readonly #validator = new SchemaValidator();
  readonly #resolver: ToolResolver;
  readonly #run: (ctx: AgentContext, call: ToolCall) => ReturnType<ConnectionPool['callTool']>;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#observations = options.observations ?? new MemoryObservationStore();
    this.#resolver = new ToolResolver(options.registry, this.#validator, options.pool);
    // One chain for every operation on a user's server (tool calls, resource lists and reads):
    // the links see each, and nothing else reaches the pool's user-facing methods.
    this.#run = chain(options.links ?? [], (ctx, call) => reachServer(options.pool, ctx, call));
  }

  /** The operator's cap on one result, in bytes of JSON: what a code caller may receive whole. */
  get maxResultBytes(): number {
    return this.#options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
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
      typeof target === 'string'
        ? target
        : // `provider` was the name of `server` before issue 31: still obeyed, with a warning.
          `${renamedOption(target, 'server', 'provider', 'dispatch target')}.${target.tool}`
    ) as ToolId;
    try {
      const parsed = parseToolId(toolId);
      toolId = parsed.id;
      const { tool, verdict } =
        this.#resolver.known(ctx, parsed.serverId, parsed.toolName) ??
        (await this.#resolver.resolveStarting(ctx, parsed.serverId, parsed.toolName));
      if (tool === undefined) throw unavailable(toolId, verdict);
      const mapping = this.#options.mappings?.[parsed.serverId]?.[parsed.toolName];
      const args = applyMapping(checkArguments(payload, this.#options.maxArgumentBytes), mapping);
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
      // Who asked is decided here, once: it picks what the call gets back below.
      const caller = options.caller ?? 'model';
      const result = await this.#run(ctx, {
        toolId,
        serverId: parsed.serverId,
        toolName: parsed.toolName,
        arguments: args,
        spec: tool.spec,
        contentHash: tool.contentHash,
        caller,
        signal: options.signal ?? ctx.signal,
        timeoutMs: options.timeoutMs,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
      checkToolResult(toolId, result, tool, this.#validator);
      const structured = result.structuredContent as JsonValue | undefined;
      return caller === 'code'
        ? this.#whole(structured ?? wholeContent(result.content ?? []), toolId, started)
        : this.#shaped(ctx, structured ?? modelContent(result), toolId, toolId, started, options);
    } catch (thrown) {
      const error = fromMcp(thrown, toolId);
      return {
        ok: false,
        error: { code: error.code, message: error.message, details: error.details },
        meta: { toolId, durationMs: elapsed(started), truncated: false },
      };
    }
  }

  /**
   * The resources and resource templates of one of the tenant's servers, through the middleware
   * chain (`<server>.resources/list`). Another tenant's or an unknown server gets the same
   * `SERVER_NOT_FOUND`. Never throws.
   */
  async listResources(
    ctx: AgentContext,
    serverId: string,
    options: Pick<DispatchOptions, 'signal' | 'caller'> = {},
  ): Promise<ActionResponse> {
    const started = performance.now();
    const meta = () => ({
      toolId: serverId as ToolId,
      durationMs: elapsed(started),
      truncated: false,
    });
    try {
      await checkServer(this.#options.registry, ctx, serverId);
      const result = await this.#run(
        ctx,
        operationCall(
          'resources/list',
          serverId,
          {},
          { caller: options.caller ?? 'model', signal: options.signal ?? ctx.signal },
        ),
      );
      const listing: ServerResources = toServerResources(
        serverId,
        result.structuredContent as unknown as ResourceListing,
      );
      return { ok: true, data: listing as unknown as JsonValue, meta: meta() };
    } catch (thrown) {
      const error = fromMcp(thrown, serverId);
      return {
        ok: false,
        error: { code: error.code, message: error.message, details: error.details },
        meta: meta(),
      };
    }
  }

  // A successful result for code: whole, within the operator's cap on one result, its JSON
  // carried on (the sandbox sends it to the script as it is). Only what a script returns is
  // shaped for a model (see observe).
  #whole(data: unknown, toolId: ToolId, started: number): ActionResponse {
    const json = checkResultSize(toolId, data, this.#options.maxResultBytes);
    return carryJson(
      {
        ok: true,
        data: data as JsonValue,
        meta: { toolId, durationMs: elapsed(started), truncated: false },
      },
      json,
    );
  }

  // A successful result for a model: sized once (its JSON written once, and handed on with it
  // while the envelope leaves it whole), then through the envelope.
  #shaped(
    ctx: AgentContext,
    data: unknown,
    toolId: ToolId,
    source: string,
    started: number,
    options: Pick<DispatchOptions, 'envelope' | 'images'>,
  ): ActionResponse {
    const json = checkResultSize(toolId, data, this.#options.maxResultBytes);
    const shaped = this.observe(ctx, data, {
      source,
      ...(options.envelope === undefined ? {} : { envelope: options.envelope }),
      ...(options.images === undefined ? {} : { images: options.images }),
      ...(json === undefined ? {} : { json }),
    });
    return carryJson(
      {
        ok: true,
        data: shaped.data,
        ...(shaped.images === undefined ? {} : { images: shaped.images }),
        meta: {
          toolId,
          durationMs: elapsed(started),
          truncated: shaped.truncated,
          ...(shaped.observationId === undefined ? {} : { observationId: shaped.observationId }),
        },
      },
      shaped.json,
    );
  }

  /**
   * Reads one resource of one of the tenant's servers, through the middleware chain
   * (`<server>.resources/read`, arguments `{uri}`): whole for code (`caller: 'code'`),
   * through the envelope for a model (cut with `read_result` pointers, images shown when asked),
   * with the same per-call size cap as a tool result. Never throws.
   */
  async readResource(
    ctx: AgentContext,
    serverId: string,
    uri: string,
    options: Pick<DispatchOptions, 'signal' | 'caller' | 'envelope' | 'images'> = {},
  ): Promise<ActionResponse> {
    const started = performance.now();
    const toolId = serverId as ToolId;
    try {
      checkResourceUri(uri);
      await checkServer(this.#options.registry, ctx, serverId);
      const caller = options.caller ?? 'model';
      const result = await this.#run(
        ctx,
        operationCall(
          'resources/read',
          serverId,
          { uri },
          { caller, signal: options.signal ?? ctx.signal },
        ),
      );
      // The contents as embedded resources, as in a tool result: the envelope, code and the CLI
      // treat both alike.
      return caller === 'code'
        ? this.#whole(result.content, toolId, started)
        : this.#shaped(ctx, result.content, toolId, serverId, started, options);
    } catch (thrown) {
      const error = fromMcp(thrown, `${serverId} resource ${uri.slice(0, 200)}`);
      return {
        ok: false,
        error: { code: error.code, message: error.message, details: error.details },
        meta: { toolId, durationMs: elapsed(started), truncated: false },
      };
    }
  }

  /**
   * Shapes any value for a model through the envelope, with this dispatcher's budget and store:
   * unchanged within the budget, else cut with `read_result` pointers that {@link readResult}
   * follows. What a script returns goes through here; tool results for the model already do.
   */
  observe(
    ctx: AgentContext,
    value: unknown,
    options: {
      readonly source: string;
      readonly envelope?: Partial<EnvelopeLimits>;
      /** The reader sees images: those within the image limits come back in `images`. */
      readonly images?: boolean;
      /** The value's JSON, when the caller wrote it already: not written again. */
      readonly json?: JsonText;
    },
  ): ShapedResult {
    return processObservation(ctx, value, {
      limits: { ...this.#options.envelope, ...options.envelope },
      store: this.#observations,
      source: options.source,
      ...(options.json === undefined ? {} : { json: options.json }),
      ...(options.images === true ? { images: this.#options.images ?? {} } : {}),
    });
  }

  /**
   * The `read_result` of a cut: the value at `path` inside a kept result, or a page of it from
   * `offset` (`limit` items, keys or characters), cut again to the budget when still too large,
   * with pointers that go on from there. Only the tenant that got the result can read it; an
   * unknown, expired or other tenant's id gets the same `INVALID_ARGUMENTS` error. Never throws.
   */
  async readResult(
    ctx: AgentContext,
    observationId: string,
    options: ReadResultOptions = {},
  ): Promise<ActionResponse> {
    return readKeptResult(this.#observations, this.#options, ctx, observationId, options);
  }

  /**
   * The whole kept value at `path`, uncut: media with their data, for a program that writes
   * them to files (never for a model). The same tenant rule and errors as {@link readResult}.
   */
  async wholeResult(
    ctx: AgentContext,
    observationId: string,
    options: { readonly path?: string } = {},
  ): Promise<ActionResponse> {
    return wholeKeptResult(this.#observations, ctx, observationId, options);
  }
}

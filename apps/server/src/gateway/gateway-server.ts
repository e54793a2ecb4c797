import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AnyObjectSchema, SchemaOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Notification,
  type Request,
  type Result,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createCheckedContext, parseUserId, type Logger, type UserId } from '@mcp-agent/core';
import {
  executeTaskTool,
  isModelConfigured,
  MetaToolSession,
  searchScope,
  type AgentStack,
  type DurableTasks,
  type SharedDescribed,
} from '@mcp-agent/agent';
import { openCallLane, type CallHandler, type WireMode } from '@mcp-agent/wire';
import { serveResources } from './gateway-resources.js';
import { answerInvalidParams } from './invalid-params.js';
import { traceGatewayRequest, tracedToolCall, type MeasuredAnswer } from './gateway-telemetry.js';

/** Options of {@link createGatewayServer}. */
export interface GatewayServerOptions {
  /** The stack the meta-tools and tasks run on. */
  readonly stack: AgentStack;
  /**
   * The user (tenant) every call of this session acts for: the `UserId` sign-in made, or a
   * string that must already be canonical (core's `parseUserId`; refused, never repaired).
   */
  readonly userId: UserId | string;
  /** Where the server's refusals and failures go; default none. */
  readonly logger?: Logger;
  /** Offer execute_task; default: when a model endpoint is configured. */
  readonly executeTask?: boolean;
  /**
   * Where execute_task runs its tasks: stored and counted with the HTTP API's (the running-task
   * cap holds over both and over every process). Without it, on the agent directly.
   */
  readonly tasks?: DurableTasks;
  /**
   * `lanes` (default): plain `tools/call` requests answered on the call lane (`openCallLane`).
   * `sdk` (`MCP_AGENT_WIRE=sdk`): every request through the SDK `Server`'s own handling.
   */
  readonly wire?: WireMode;
  /**
   * The session's state shared with the other processes that serve it (the HTTP gateway's
   * sessions in the database): what it had when it was restored here, and where changes go.
   */
  readonly sharing?: GatewaySessionSharing;
}

/** What a gateway session carries between processes, and where its changes go. */
export interface GatewaySessionSharing {
  /** The tools it had described when restored here (none for a new session). */
  readonly described: readonly string[];
  /** What search_tools last said it searches, when restored here ('' for a new session). */
  readonly searchScope: string;
  /** The described set, shared (see `SharedDescribed`). */
  readonly shared: SharedDescribed;
  /** search_tools' scope changed (the client is told to list the tools again). */
  scoped(scope: string): void;
}

const INSTRUCTIONS =
  'This gateway reaches the MCP servers connected for you (search_tools\' description names them and what each is for, and changes with them). Work in order: search_tools to find tools by what they do (a task of several steps: one short search per step, all in the "queries" of one call), describe_tools to read their parameters, then call_tool for one call or run_code for a script that calls several described tools and returns only what matters. When a search misses (no_good_match, or no match does what you need) or the need clearly belongs to one server, browse that server: search_tools with "servers" and no query lists all its tools, a page at a time; each search names the best_servers to browse first.';

/**
 * One MCP server session bound to one user: a thin adapter over a `MetaToolSession`, so the
 * gateway's meta-tools are the agent's, with the same rules (describe before call), limits and
 * error payload. The client's cancellation reaches the upstream call; its progress token
 * receives the upstream server's progress.
 */
export function createGatewayServer(options: GatewayServerOptions): Server {
  const { stack, tasks } = options;
  // The one user-id rule, at the start: a bad id fails here, not on every call of the session.
  const userId = parseUserId(options.userId);
  const server = new LaneServer(
    options.wire ?? 'lanes',
    { name: 'mcp-agent-gateway', version: '0.1.0' },
    {
      capabilities: { logging: {}, tools: { listChanged: true }, resources: {} },
      instructions: INSTRUCTIONS,
    },
  );
  // The session's own tool calls (call_tool, run_code) count as one task's usage, as an agent's
  // task's do: one usage row per server and day, not one per call.
  const taskId = `gateway-${randomUUID()}`;
  const offerTask = options.executeTask ?? isModelConfigured();
  const { sharing } = options;
  const session = new MetaToolSession({
    ...(sharing === undefined ? {} : { described: sharing.described, shared: sharing.shared }),
    knowledge: stack.knowledge,
    dispatcher: stack.dispatcher,
    ...(stack.sandbox === undefined ? {} : { sandbox: stack.sandbox }),
    ...(offerTask
      ? {
          extraTools: [
            executeTaskTool((task, signal, context) => {
              const options = { signal, ...(context === undefined ? {} : { context }) };
              return tasks === undefined
                ? stack.agent.executeTask(task, userId, options)
                : tasks.run(userId, task, options);
            }),
          ],
        }
      : {}),
  });
  // Lazy start: search and describe read the stored catalogs, and a server starts on the first
  // call that needs it (the dispatcher's), so a hanging one delays only the calls to it. A
  // server never tried has no catalog to search yet: the session's first request discovers
  // those, waiting for each at most NEVER_TRIED_WAIT_MS (once: a failure is then recorded).
  let discovering: Promise<unknown> | undefined;
  let discovered = false;
  const discover = () =>
    (discovering ??= discoverNeverTried(stack, userId).finally(() => (discovered = true)));

  // search_tools says which servers it searches. Read again for every tools/list and after each
  // search (a server connected, removed or failed since shows up there first); when it changed
  // after the client listed the tools, the client is told to list them again.
  if (sharing !== undefined && sharing.searchScope !== '')
    session.setSearchScope(sharing.searchScope);
  const rescope = async (): Promise<boolean> => {
    const manifest = await stack.knowledge.manifest(createCheckedContext({ userId }));
    const scope = searchScope(manifest);
    const changed = session.setSearchScope(scope);
    if (changed) sharing?.scoped(scope);
    return changed;
  };
  serveResources(server, stack, userId);
  server.setRequestHandler(ListToolsRequestSchema, () =>
    traceGatewayRequest({ userId, method: 'tools/list' }, async () => {
      await rescope().catch(() => false);
      return { tools: session.tools };
    }),
  );
  server.setCallHandler(
    tracedToolCall(userId, async (request, extra, requestId): Promise<MeasuredAnswer> => {
      // Awaited only until it settled: every call after that starts at once.
      if (!discovered) await discover();
      const ctx = createCheckedContext({
        userId,
        taskId,
        ...(requestId === undefined ? {} : { requestId }),
        signal: extra.signal,
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
      const progressToken = request.params._meta?.progressToken;
      // Progress is forwarded in order, and all of it before the result.
      let forwarded: Promise<void> | undefined;
      const observation = await session.run(request.params.name, request.params.arguments, {
        ctx,
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: (progress) => {
                forwarded = (forwarded ?? Promise.resolve())
                  .then(() =>
                    extra.sendNotification({
                      method: 'notifications/progress',
                      params: { progressToken, ...progress },
                    }),
                  )
                  .catch(() => undefined);
              },
            }),
      });
      // Awaited only when there was progress: an await costs the answer a tick even then.
      if (forwarded !== undefined) await forwarded;
      if (request.params.name === 'search_tools') {
        void rescope()
          .then((changed) => (changed ? server.sendToolListChanged() : undefined))
          .catch(() => undefined);
      }
      // The observation's JSON as the session wrote it, once; its size is counted from there.
      const images = observation.images ?? [];
      let bytes = observation.json.bytes;
      for (const image of images) bytes += image.data.length;
      const result = {
        content: [
          { type: 'text' as const, text: observation.json.text },
          // The images the text describes as shown, within the dispatcher's image limits.
          ...images.map(({ mimeType, data }) => ({ type: 'image' as const, mimeType, data })),
        ],
        ...(observation.ok ? {} : { isError: true }),
      };
      return { result, bytes };
    }),
  );
  return server;
}

/** The SDK's `Server`, with the plain `tools/call` requests answered on a call lane (`lanes`). */
class LaneServer extends Server {
  #callTool: CallHandler | undefined;
  readonly #wire: WireMode;

  constructor(wire: WireMode, ...args: ConstructorParameters<typeof Server>) {
    super(...args);
    this.#wire = wire;
  }

  /**
   * Answers `tools/call` with `handler`: the plain requests on the lane (see `openCallLane`),
   * the rest (malformed ones, those asking for a task) after the SDK's own checks, which decide.
   */
  setCallHandler(handler: CallHandler): void {
    this.#callTool = handler;
    this.setRequestHandler(CallToolRequestSchema, (request, extra) => handler(request, extra));
  }

  /**
   * As the SDK's, except that a request its schema refuses is answered -32602 naming the fields
   * (see `answerInvalidParams`), on both wires: the lanes leave such requests to this server.
   */
  override setRequestHandler<T extends AnyObjectSchema>(
    schema: T,
    handler: (
      request: SchemaOutput<T>,
      extra: RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>,
    ) => ServerResult | Result | Promise<ServerResult | Result>,
  ): void {
    super.setRequestHandler(schema, handler);
    answerInvalidParams(this, schema);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    if (this.#callTool !== undefined && this.#wire === 'lanes')
      openCallLane(transport, this.#callTool);
  }
}

// Discovers the user's servers that were never tried (no stored catalog, no recorded error),
// waiting for each at most NEVER_TRIED_WAIT_MS. A wait that runs out is recorded then (GW-11):
// later sessions, in this process or another, find the error stored and do not wait again; a
// call that needs the server starts it then. Never rejects.
async function discoverNeverTried(stack: AgentStack, userId: UserId): Promise<void> {
  const ctx = createCheckedContext({ userId });
  const servers = await stack.registry.availability(ctx).catch(() => undefined);
  const neverTried = (servers?.active ?? []).filter(
    (server) => server.toolCount === null && server.lastError === null && server.authorized,
  );
  if (neverTried.length === 0) return;
  await stack.pool
    .warmUp(ctx, { timeoutMs: NEVER_TRIED_WAIT_MS, serverIds: neverTried.map((s) => s.id) })
    .catch(() => undefined);
}

// Long enough for a server run by npx to load; a server that hangs costs this once.
const NEVER_TRIED_WAIT_MS = 10_000;

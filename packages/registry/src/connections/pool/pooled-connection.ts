import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ReadResourceResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  instruments,
  NotReadyError,
  type AgentContext,
  type Logger,
  type ServerConfig,
  backoffDelay,
  sleep,
} from '@mcp-agent/core';
import type { PoolStore } from './pool-store.js';
import { CircuitBreaker } from './circuit-breaker.js';
import type { ConnectionMetrics, ConnectionState } from '../../store/readiness/connection-state.js';
import { callToolAsTask } from './call-tool-as-task.js';
import { checkedCallResult } from './call-tool-result.js';
import { RequestLane } from '@mcp-agent/wire';
import { warnOfCatalog } from './catalog-warnings.js';
import { errorText } from './attempt-failure.js';
import { connectAndList, NeedsAuthorization } from './connect-attempt.js';
import type { CallOptions, ConnectionHooks, ConnectionOptions } from './connection-options.js';
import { ConnectionUsage } from './connection-usage.js';
import { HungLately } from './hung-lately.js';
import { listAllResources, type ResourceListing } from './list-all-resources.js';
import { listAllTools } from './list-all-tools.js';
import { withheldEnv } from './passed-env.js';
import { isSessionExpired, sendRequest, type PooledSession } from './send-request.js';

/**
 * One persistent MCP session for one (tenant, server, credential version): discovery with
 * retry and a breaker, readiness recorded in the registry, restart after an unexpected exit,
 * a single re-initialisation on a streamable-HTTP 404, and catalog refresh on list_changed.
 */
export class PooledConnection {
  readonly serverId: string;
  readonly userId: string;
  /** Hash of the resolved definition, secrets included: a changed credential is a new key. */
  readonly credentialVersion: string;
  readonly #ctx: AgentContext;
  readonly #config: ServerConfig;
  readonly #store: PoolStore;
  readonly #options: ConnectionOptions;
  readonly #hooks: ConnectionHooks;
  readonly #logger: Logger;
  readonly #breaker: CircuitBreaker;
  /** The open session: the SDK's client, its transport, and the lane on it, held together. */
  #session: (PooledSession & { readonly transport: Transport }) | undefined;
  // The attempt under way, so that closing mid-discovery ends its process too.
  #attempt: { client: Client; transport: Transport } | undefined;
  // Whether the server hung at its handshake lately: a discovery then tries it once.
  readonly #hung: HungLately;
  #discovery: Promise<void> | undefined;
  #state: ConnectionState;
  #closing = false;
  #restarts = 0;
  readonly #usage: ConnectionUsage;

  constructor(
    ctx: AgentContext,
    config: ServerConfig,
    credentialVersion: string,
    store: PoolStore,
    options: ConnectionOptions,
    hooks: ConnectionHooks,
  ) {
    this.#ctx = ctx;
    this.serverId = config.id;
    this.userId = ctx.userId;
    this.credentialVersion = credentialVersion;
    this.#config = config;
    this.#store = store;
    this.#options = options;
    this.#hooks = hooks;
    this.#logger = ctx.logger.child({ serverId: config.id });
    this.#breaker = new CircuitBreaker(options.breaker, () => ctx.clock.now());
    this.#usage = new ConnectionUsage(ctx.clock);
    this.#hung = new HungLately(hooks.lastState, ctx.clock.now());
    this.#state = {
      userId: ctx.userId,
      serverId: config.id,
      status: 'pending',
      attempts: 0,
      lastError: null,
      toolCount: null,
      catalogVersion: null,
      discoveredAt: null,
      breaker: 'closed',
    };
  }

  get state(): ConnectionState {
    return { ...this.#state, breaker: this.#breaker.state };
  }

  /**
   * Variables of the documented passed set (proxies, certificate authorities, npm's cache) that
   * are set on this host but do not reach this stdio server: the usual reason a server hangs.
   */
  get withheldEnv(): readonly string[] {
    if (this.#config.transport !== 'stdio') return [];
    return withheldEnv(process.env, this.#options.passEnv, Object.keys(this.#config.env));
  }

  /** True when the last failed attempt got no answer to the MCP handshake in time. */
  get hungAtHandshake(): boolean {
    return this.#hung.atHandshake;
  }

  /**
   * Records why a caller stopped waiting (`no MCP handshake within 30 s`) as the last error of a
   * connection still connecting without one, so the reason outlives the wait.
   */
  async noteWait(reason: string): Promise<void> {
    const { status, lastError } = this.#state;
    if ((status === 'connecting' || status === 'pending') && lastError === null && !this.#closing)
      await this.#setState({ lastError: reason });
  }

  get metrics(): ConnectionMetrics {
    return this.#usage.metrics;
  }

  /**
   * How long, by this connection's clock, since its last request of any kind (connect, list,
   * refresh, call). Pings do not count: a health check must not keep an unused server alive.
   */
  idleFor(): number {
    return this.#usage.idleFor();
  }

  /** True while a call is running: the pool never evicts a busy connection. */
  get busy(): boolean {
    return this.#usage.busy;
  }

  /** The SDK client of a ready connection (benchmarks and the gateway use it directly). */
  get client(): Client | undefined {
    return this.#session?.client;
  }

  /** Ready to send: discovered, its session open, not closing. */
  get isReady(): boolean {
    return !this.#closing && this.#state.status === 'ready' && this.#session !== undefined;
  }

  /** Connects and discovers if needed; single-flight, so concurrent callers share one attempt. */
  ensureReady(): Promise<void> {
    if (this.#closing)
      return Promise.reject(new NotReadyError(`The connection to "${this.serverId}" is closed.`));
    if (this.isReady) return Promise.resolve();
    this.#discovery ??= this.#discover().finally(() => {
      this.#discovery = undefined;
    });
    return this.#discovery;
  }

  /** Pings the server; on failure drops the session so the next use reconnects. */
  async ping(timeoutMs = 5_000): Promise<boolean> {
    const client = this.#session?.client;
    if (client === undefined) return false;
    try {
      await client.ping({ timeout: timeoutMs });
      return true;
    } catch (error) {
      this.#logger.warn({ error }, 'ping failed; reconnecting on next use');
      await this.#drop(`ping failed: ${errorText(error)}`);
      return false;
    }
  }

  /** Calls a tool with timeout, maximum total timeout and cancellation. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const onLane = options.task !== true && this.#options.wire === 'lanes';
    const params = { name, arguments: args };
    return this.#request(options, onLane, ({ client, lane }, request) => {
      if (options.task === true)
        return callToolAsTask(client, this.serverId, name, args, request, {
          onProgress: options.onProgress,
          ceilingMs: this.#options.maxTotalTimeoutMs,
        });
      // No lane on `sdk` (MCP_AGENT_WIRE): the SDK's request, its schema check of the result.
      if (lane === undefined)
        return client.request({ method: 'tools/call', params }, CallToolResultSchema, request);
      return lane.request({ method: 'tools/call', params }, request).then(checkedCallResult);
    });
  }

  /**
   * The server's resources and resource templates, every page up to `maxItems` of each (default
   * 1,000; `truncated` says when there were more). A server that declares no resources
   * capability answers with empty lists and `supported: false`, without a request.
   */
  async listResources(
    options: CallOptions & { readonly maxItems?: number } = {},
  ): Promise<ResourceListing> {
    return this.#request(options, false, ({ client }, request) =>
      listAllResources(client, request, options.maxItems ?? 1_000),
    );
  }

  /** Reads one resource by URI, with the same timeout and cancellation as a tool call. */
  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.#request(options, false, ({ client }, req) => client.readResource({ uri }, req));
  }

  // One request of the session: counted in flight (never evicted meanwhile), timed, re-initialised
  // once when a streamable-HTTP server forgot it. Not async: one handler here, not a frame.
  #request<T>(
    options: CallOptions,
    onLane: boolean,
    run: (session: PooledSession, request: RequestOptions) => Promise<T>,
  ): Promise<T> {
    return this.#usage.measure(() => {
      const sent = this.isReady
        ? this.#send(options, run, onLane)
        : this.ensureReady().then(() => this.#send(options, run, onLane));
      return sent.catch(async (error: unknown) => {
        // A streamable-HTTP session the server forgot: initialise once, retry once.
        if (!isSessionExpired(error)) throw error;
        this.#logger.warn({}, 'session not found; re-initialising once');
        await this.#drop('session expired');
        await this.ensureReady();
        return await this.#send(options, run, onLane);
      });
    }, options.signal);
  }

  /**
   * Closes the session and its process group; the connection cannot be used afterwards. Closed
   * mid-discovery, it records why the server was not ready by then (a wait's reason noted
   * earlier, if any): our own stop of its process is never recorded as the server's failure.
   */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const session = this.#session;
    const attempt = this.#attempt;
    const discovering = this.#discovery !== undefined;
    this.#session = undefined;
    this.#attempt = undefined;
    await Promise.all([
      session?.client.close().catch(() => undefined),
      attempt?.transport.close().catch(() => undefined),
    ]);
    if (discovering && this.#state.status !== 'ready')
      await this.#setState({
        status: 'failed',
        lastError: this.#state.lastError ?? 'closed before its discovery finished',
      });
  }

  #send<T>(
    options: CallOptions,
    run: (session: PooledSession, request: RequestOptions) => Promise<T>,
    onLane: boolean,
  ): Promise<T> {
    const session = this.#session;
    if (session === undefined)
      return Promise.reject(
        new NotReadyError(`The connection to "${this.serverId}" is not ready.`),
      );
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs ?? this.#options.requestTimeoutMs;
    const limits = { timeoutMs, ceilingMs: this.#options.maxTotalTimeoutMs };
    return sendRequest(session, this.serverId, limits, options, run, onLane);
  }

  async #discover(): Promise<void> {
    let lastError = 'unknown error';
    let failed = false;
    let needsAuthorization = false;
    const attempts = this.#hung.attempts(this.#options.attempts);
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (this.#closing) break;
      if (!this.#breaker.tryAcquire()) {
        const until = new Date(this.#breaker.openUntil).toISOString();
        lastError = `circuit open after repeated failures; next try after ${until} (last error: ${lastError})`;
        break;
      }
      // The previous attempt's reason rides along, so a status read mid-way says what went wrong.
      await this.#setState({
        status: 'connecting',
        attempts: attempt + 1,
        ...(failed ? { lastError } : {}),
      });
      this.#usage.touch();
      try {
        const tools = await this.#connectAndList();
        this.#usage.touch();
        this.#breaker.recordSuccess();
        this.#restarts = 0;
        this.#hung.discovered();
        const update = await this.#store.replaceCatalog(this.#ctx, this.serverId, tools);
        warnOfCatalog(update, this.#logger);
        await this.#setState({
          status: 'ready',
          lastError: null,
          toolCount: update.toolCount,
          catalogVersion: update.version,
          discoveredAt: this.#ctx.clock.now(),
        });
        return;
      } catch (error) {
        // Our own close ended the attempt (its process killed): not the server's failure.
        if (this.#closing) break;
        this.#breaker.recordFailure();
        failed = true;
        lastError = errorText(error);
        needsAuthorization = error instanceof NeedsAuthorization;
        this.#logger.warn({ attempt: attempt + 1, error: lastError }, 'discovery attempt failed');
        // Without signing in, another attempt gets the same 401.
        if (needsAuthorization) break;
        if (attempt + 1 < attempts && !this.#closing) {
          await sleep(backoffDelay(attempt, this.#options.backoff));
        }
      }
    }
    // A close mid-discovery recorded the state itself (see close).
    if (this.#closing)
      throw new NotReadyError(`The connection to "${this.serverId}" was closed while connecting.`);
    await this.#setState({ status: needsAuthorization ? 'needs_auth' : 'failed', lastError });
    const why = this.#hung.failed(lastError, attempts, this.#options.attempts);
    throw new NotReadyError(`Server "${this.serverId}" failed: ${why}`, {
      details: { servers: [this.#diagnostics()] },
    });
  }

  #connectAndList(): Promise<Tool[]> {
    return connectAndList(this.#config, this.#options, this.#hooks.fetch, {
      started: (attempt) => (this.#attempt = attempt),
      connected: (client, transport) => {
        this.#attempt = undefined;
        this.#hung.attemptEnded(false);
        this.#adopt(client, transport);
      },
      failed: (hungAtHandshake) => {
        this.#attempt = undefined;
        this.#hung.attemptEnded(hungAtHandshake);
      },
    });
  }

  #adopt(client: Client, transport: Transport): void {
    // Tool calls go beside the SDK's client, on the same transport (see RequestLane).
    const lane = this.#options.wire === 'lanes' ? new RequestLane(transport) : undefined;
    this.#session = { client, transport, lane };
    client.onclose = () => {
      if (this.#session?.client !== client) return;
      this.#session = undefined;
      if (this.#closing) return;
      void this.#restart();
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      try {
        const tools = await listAllTools(client, this.#options.attemptTimeoutMs);
        this.#usage.touch();
        const update = await this.#store.replaceCatalog(this.#ctx, this.serverId, tools);
        await this.#setState({ toolCount: update.toolCount, catalogVersion: update.version });
        this.#hooks.onToolsChanged(update);
      } catch (error) {
        this.#logger.warn({ error: errorText(error) }, 'refreshing the tool list failed');
      }
    });
  }

  // An unexpected exit: back off, then discover again; ready only once re-discovered.
  async #restart(): Promise<void> {
    this.#restarts += 1;
    instruments().serverRestarts.add(1, { server: this.serverId });
    if (this.#restarts > this.#options.maxRestarts) {
      await this.#setState({
        status: 'failed',
        lastError: `exited ${this.#restarts - 1} times; not restarting`,
      });
      return;
    }
    await this.#setState({
      status: 'pending',
      lastError: 'the server closed the connection; restarting',
    });
    await sleep(backoffDelay(this.#restarts - 1, this.#options.backoff));
    if (this.#closing) return;
    await this.ensureReady().catch(() => undefined);
  }

  async #drop(reason: string): Promise<void> {
    const client = this.#session?.client;
    this.#session = undefined;
    await this.#setState({ status: 'pending', lastError: reason });
    await client?.close().catch(() => undefined);
  }

  async #setState(
    change: Partial<Omit<ConnectionState, 'userId' | 'serverId' | 'breaker'>>,
  ): Promise<void> {
    this.#state = { ...this.#state, ...change };
    const state = this.state;
    try {
      await this.#store.recordState(this.#ctx, this.serverId, {
        status: state.status,
        lastError: state.lastError,
        attempts: state.attempts,
      });
    } catch (error) {
      // The server may have been removed meanwhile; readiness in memory stays authoritative.
      this.#logger.debug({ error: errorText(error) }, 'could not record state');
    }
    this.#hooks.onState(state);
  }

  #diagnostics() {
    const { status, attempts, lastError } = this.#state;
    return { id: this.serverId, status, attempts, lastError };
  }
}

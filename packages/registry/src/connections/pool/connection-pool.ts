import { EventEmitter } from 'node:events';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createCheckedContext,
  NotReadyError,
  silentLogger,
  type AgentContext,
  type Clock,
  type Logger,
  canonicalHash,
  compareText,
} from '@mcp-agent/core';
import type { CatalogUpdate } from '../../store/repositories/tool-catalog.js';
import { guardedFetch } from '../net/guarded-fetch.js';
import type { OAuthService } from '../oauth/oauth-service.js';
import type { ConnectionMetrics, ConnectionState } from '../../store/readiness/connection-state.js';
import type { PoolStore } from './pool-store.js';
import type { ResourceListing } from './list-all-resources.js';
import type { CallOptions, ConnectionOptions } from './connection-options.js';
import { PooledConnection } from './pooled-connection.js';
import { waitReason } from './attempt-failure.js';
import { reportServer, settle, type ServerReport } from './server-report.js';
import { connectionOptions, type ConnectionPoolOptions } from './pool-options.js';
import { tracedToolCall } from './pool-telemetry.js';
import { untilReady } from './until-ready.js';

/** Events of the pool. */
export interface ConnectionPoolEvents {
  /** A connection's readiness changed; the registry records it too. */
  state: [ConnectionState];
  /** A server's tool list was read again (after `list_changed`) and stored. */
  'tools-changed': [
    {
      /** The tenant whose connection it is. */
      readonly userId: string;
      /** The server whose tools changed. */
      readonly serverId: string;
      /** What changed in its catalog. */
      readonly update: CatalogUpdate;
    },
  ];
}

/** One server's row in a status view. */
export interface ServerStatus extends ConnectionState {
  /** Calls, errors and latency of the open connection. */
  readonly metrics: ConnectionMetrics;
}

/**
 * Persistent MCP sessions, one per (tenant, server, credential version), opened lazily and
 * shared by every request of that tenant. Servers added, changed or removed in the registry
 * are reconnected or closed without a restart. Two tenants never share a session.
 *
 * @example
 * ```ts
 * const pool = new ConnectionPool(registry, { idleMs: 5 * 60_000 }); // close before the registry
 * const result = await pool.callTool(ctx, 'github', 'search_issues', { q: 'is:open bug' });
 * ```
 */
export class ConnectionPool extends EventEmitter<ConnectionPoolEvents> {
  readonly #store: PoolStore;
  readonly #options: ConnectionOptions;
  readonly #idleMs: number;
  readonly #maxSize: number;
  readonly #pingAfterIdleMs: number;
  readonly #logger: Logger;
  readonly #oauth: OAuthService | undefined;
  readonly #clock: Clock | undefined;
  readonly #connections = new Map<string, PooledConnection>();
  readonly #opening = new Map<string, Promise<PooledConnection>>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #unsubscribe: (() => void)[] = [];
  #closed = false;
  #guardedFetch: typeof globalThis.fetch | undefined;

  constructor(store: PoolStore, options: ConnectionPoolOptions = {}) {
    super();
    this.#store = store;
    this.#options = connectionOptions(options);
    this.#idleMs = options.idleMs ?? 10 * 60_000;
    this.#maxSize = options.maxSize ?? 500;
    this.#pingAfterIdleMs = options.pingAfterIdleMs ?? 60_000;
    this.#logger = options.logger ?? silentLogger;
    this.#oauth = options.oauth;
    this.#clock = options.clock;
    const pingIntervalMs = options.pingIntervalMs ?? 30_000;
    if (pingIntervalMs > 0) this.#every(pingIntervalMs, () => this.#pingAll());
    if (this.#idleMs > 0)
      this.#every(Math.max(1_000, Math.min(this.#idleMs, 60_000)), async () => {
        await this.evictIdle();
      });
    // A changed or removed definition closes the old session; the next use opens the new one.
    const drop = ({ userId, serverId }: { userId: string; serverId: string }) => {
      void this.#close(key(userId, serverId));
    };
    store.events.on('server-updated', drop);
    store.events.on('server-removed', drop);
    this.#unsubscribe.push(
      () => store.events.off('server-updated', drop),
      () => store.events.off('server-removed', drop),
    );
    // Another process's change matters only to connections held here (LOAD-11).
    const unfollow = store.followChangesWhile?.(() => this.#connections.size > 0);
    if (unfollow !== undefined) this.#unsubscribe.push(unfollow);
  }

  /** The tenant's connection to `serverId`, opened (not yet discovered) if needed; single-flight. */
  async connection(ctx: AgentContext, serverId: string): Promise<PooledConnection> {
    if (this.#closed) throw new NotReadyError('The connection pool is closed.');
    const id = key(ctx.userId, serverId);
    // Hot path: an open session is current, because registry events close changed ones.
    const open = this.#connections.get(id);
    if (open !== undefined) return open;
    const opening = this.#opening.get(id);
    if (opening !== undefined) return opening;
    const promise = this.#open(ctx, serverId).finally(() => this.#opening.delete(id));
    this.#opening.set(id, promise);
    return promise;
  }

  /** A ready connection: connects and discovers if needed, pings one that sat idle. */
  async ready(ctx: AgentContext, serverId: string): Promise<PooledConnection> {
    const open = this.#readyNow(ctx, serverId);
    if (open !== undefined) return open;
    const connection = await this.connection(ctx, serverId);
    if (connection.state.status === 'ready' && connection.idleFor() > this.#pingAfterIdleMs)
      await connection.ping();
    await connection.ensureReady();
    return connection;
  }

  // Hot path: an open, ready session that was used lately is handed out without a wait.
  #readyNow(ctx: AgentContext, serverId: string): PooledConnection | undefined {
    return this.#usable(this.#connections.get(key(ctx.userId, serverId)));
  }

  #usable(held: PooledConnection | undefined): PooledConnection | undefined {
    return !this.#closed && held?.isReady === true && held.idleFor() <= this.#pingAfterIdleMs
      ? held
      : undefined;
  }

  /**
   * Connects every server in effect for the request and waits until each one is ready, has
   * failed or ran out of `timeoutMs` — each on its own, so one slow or broken server never cuts
   * another's wait short. A wait that runs out is recorded as the connection's last error at
   * once (stored, so another process or session sees it), not only when discovery ends.
   * `serverIds` narrows the servers (one not in effect is left out). Never rejects: the states
   * say how each one ended.
   */
  async warmUp(
    ctx: AgentContext,
    options: { timeoutMs?: number; serverIds?: readonly string[] } = {},
  ): Promise<ConnectionState[]> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const wanted = options.serverIds === undefined ? undefined : new Set(options.serverIds);
    const ids = (await this.#store.availability(ctx)).active
      .map((server) => server.id)
      .filter((id) => wanted === undefined || wanted.has(id));
    const states = await Promise.all(
      ids.map(async (id) => {
        const connection = await this.connection(ctx, id).catch(() => undefined);
        if (connection === undefined) return undefined;
        if ((await settle(connection, timeoutMs)) === 'timeout')
          await connection.noteWait(waitReason(timeoutMs));
        return connection.state;
      }),
    );
    return states.filter((state): state is ConnectionState => state !== undefined);
  }

  /**
   * Every server of the tenant in effect for the request, and the disabled ones, each with its
   * own final state and the reason: connects the enabled, authorised ones and waits for each on
   * its own up to `timeoutMs` (one that fails fast never cuts another's wait short). A server
   * still connecting then is `timeout`, and the wait's reason is kept as its last error.
   * `serverIds` narrows the report (an unknown id is left out). Never rejects.
   */
  async report(
    ctx: AgentContext,
    options: { timeoutMs?: number; serverIds?: readonly string[] } = {},
  ): Promise<ServerReport[]> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const wanted = options.serverIds === undefined ? undefined : new Set(options.serverIds);
    const servers = (await this.#store.availability(ctx)).servers.filter(
      (server) =>
        (wanted === undefined || wanted.has(server.id)) &&
        (server.excludedBy === undefined || server.excludedBy === 'disabled'),
    );
    return Promise.all(
      servers.map((server) =>
        reportServer(server, () => this.connection(ctx, server.id), timeoutMs),
      ),
    );
  }

  /**
   * Resolves with each server's state when every one is ready. Rejects at once when one has
   * failed (or is unknown), and at the timeout, with a `NotReadyError` listing each server's
   * state and last error.
   */
  async waitForReady(
    ctx: AgentContext,
    serverIds: readonly string[],
    options: { timeoutMs?: number } = {},
  ): Promise<ConnectionState[]> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const connections = new Map<string, PooledConnection | Error>();
    await Promise.all(
      serverIds.map(async (id) => {
        connections.set(id, await this.connection(ctx, id).catch((error: Error) => error));
      }),
    );
    return untilReady(serverIds, connections, timeoutMs, ctx.signal);
  }

  /**
   * Calls a tool through the tenant's pooled session; a tool's own failure is an `isError` result.
   * @throws NotReadyError (`NOT_READY`) if the server failed to connect or the pool is closed,
   *   ServerNotFoundError, PolicyDeniedError (launch refused) or TimeoutError (no answer).
   */
  callTool(
    ctx: AgentContext,
    serverId: string,
    toolName: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const held = this.#connections.get(key(ctx.userId, serverId));
    // Reused: the tenant's session was open and ready before this call asked for it.
    const reused = held?.isReady === true;
    // No async frame of its own, nor inside: each would be one more resumption for every answer.
    const call = (connection: PooledConnection) =>
      connection.callTool(toolName, args, { ...options, signal: options.signal ?? ctx.signal });
    return tracedToolCall(ctx, serverId, toolName, args, reused, () => {
      // A ready session is used at once: awaiting `ready` would cost a tick even then.
      const open = this.#usable(held);
      return open === undefined ? this.ready(ctx, serverId).then(call) : call(open);
    });
  }

  /**
   * The resources and resource templates of the tenant's server, through its pooled session
   * (see `PooledConnection.listResources`). Only the tenant's own servers are reached.
   */
  async listResources(
    ctx: AgentContext,
    serverId: string,
    options: CallOptions & { readonly maxItems?: number } = {},
  ): Promise<ResourceListing> {
    const connection = await this.ready(ctx, serverId);
    return connection.listResources({ ...options, signal: options.signal ?? ctx.signal });
  }

  /** Reads one resource of the tenant's server through its pooled session. */
  async readResource(
    ctx: AgentContext,
    serverId: string,
    uri: string,
    options: CallOptions = {},
  ): Promise<ReadResourceResult> {
    const connection = await this.ready(ctx, serverId);
    return connection.readResource(uri, { ...options, signal: options.signal ?? ctx.signal });
  }

  /** The readiness and metrics of the tenant's open connections. */
  status(ctx: AgentContext): ServerStatus[] {
    return [...this.#connections.values()]
      .filter((c) => c.userId === ctx.userId)
      .map((c) => ({ ...c.state, metrics: c.metrics }))
      .sort((a, b) => compareText(a.serverId, b.serverId));
  }

  /**
   * The readiness and metrics of every open connection, every tenant's: for the operator's views
   * and process metrics only; a tenant is answered with {@link status}.
   */
  statusOfAll(): ServerStatus[] {
    return [...this.#connections.values()].map((c) => ({ ...c.state, metrics: c.metrics }));
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#connections.size;
  }

  /** Closes every session and stops the timers; no child process is left behind. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    for (const off of this.#unsubscribe) off();
    await Promise.all([...this.#opening.values()].map((p) => p.catch(() => undefined)));
    await Promise.all([...this.#connections.keys()].map((id) => this.#close(id)));
    this.removeAllListeners();
  }

  async #open(ctx: AgentContext, serverId: string): Promise<PooledConnection> {
    const { config, oauth, publicOnly, lastState } = await this.#store.launchPlan(ctx, serverId);
    const version = canonicalHash(config).slice(0, 16);
    const id = key(ctx.userId, serverId);
    const existing = this.#connections.get(id);
    if (existing !== undefined && existing.credentialVersion === version) return existing;
    if (existing !== undefined) await this.#close(id);
    await this.#makeRoom();
    // Background work (restarts, pings, refreshes) runs in a context of its own, so one
    // request's cancellation never tears down the shared session.
    const background = createCheckedContext({
      userId: ctx.userId,
      logger: this.#logger,
      clock: this.#clock ?? ctx.clock,
    });
    // A tenant's own remote server, in a service that accepts public ones only: every
    // connection and redirect is checked, not just the URL that was registered.
    const base = publicOnly ? this.#publicFetch() : undefined;
    const fetch =
      oauth && this.#oauth !== undefined
        ? (this.#oauth?.fetchFor(background, serverId, base) as typeof globalThis.fetch)
        : base;
    const connection = new PooledConnection(
      background,
      config,
      version,
      this.#store,
      this.#options,
      {
        onState: (state) => this.emit('state', state),
        ...(lastState === undefined ? {} : { lastState }),
        onToolsChanged: (update) =>
          this.emit('tools-changed', { userId: ctx.userId, serverId, update }),
        ...(fetch === undefined ? {} : { fetch }),
      },
    );
    this.#connections.set(id, connection);
    return connection;
  }

  #publicFetch(): typeof globalThis.fetch {
    this.#guardedFetch ??= guardedFetch({
      label: 'MCP server URL',
      hint: 'this service accepts public https servers only',
    }) as typeof globalThis.fetch;
    return this.#guardedFetch;
  }

  async #close(id: string): Promise<void> {
    const connection = this.#connections.get(id);
    if (connection === undefined) return;
    this.#connections.delete(id);
    await connection.close();
  }

  async #makeRoom(): Promise<void> {
    if (this.#connections.size < this.#maxSize) return;
    const idle = [...this.#connections.entries()]
      .filter(([, c]) => !c.busy)
      .sort(([, a], [, b]) => a.metrics.lastActiveAt - b.metrics.lastActiveAt);
    const victim = idle[0];
    if (victim !== undefined) await this.#close(victim[0]);
    else
      this.#logger.warn(
        { size: this.#connections.size },
        'pool is full of busy connections; opening one more',
      );
  }

  /**
   * Closes every connection idle past `idleMs` (see `PooledConnection.idleFor`), with its child
   * process, and returns how many; the pool runs this on a timer. A later use reconnects.
   */
  async evictIdle(): Promise<number> {
    if (this.#idleMs <= 0) return 0;
    const idle = [...this.#connections].filter(
      ([, connection]) => !connection.busy && connection.idleFor() > this.#idleMs,
    );
    await Promise.all(idle.map(([id]) => this.#close(id)));
    return idle.length;
  }

  async #pingAll(): Promise<void> {
    await Promise.all(
      [...this.#connections.values()]
        .filter((c) => c.state.status === 'ready' && !c.busy)
        .map((c) => c.ping()),
    );
  }

  #every(ms: number, run: () => Promise<void>): void {
    const timer = setInterval(() => {
      run().catch((error: unknown) => this.#logger.warn({ error }, 'pool maintenance failed'));
    }, ms);
    timer.unref();
    this.#timers.push(timer);
  }
}

function key(userId: string, serverId: string): string {
  return `${userId}\u0000${serverId}`;
}

import {
  parseServerConfig,
  PolicyDeniedError,
  type AgentContext,
  type ParseConfigFileOptions,
  type ServerConfig,
} from '@mcp-agent/core';
import {
  resolveTiers,
  type ActiveServer,
  type ActiveServersOptions,
  type TierEntry,
} from './store/availability/active-servers.js';
import { Availability, judgeServer } from './store/availability/availability.js';
import {
  notFound,
  type ConnectionRecord,
  type ConnectionStateUpdate,
} from './store/repositories/connections.js';
import type { Executor } from './store/database/executor.js';
import type { CatalogUpdate } from './store/repositories/tool-catalog.js';
import { scanToolDefinitions, type ToolFinding } from './store/catalog/tool-findings.js';
import { resolveHome } from './store/database/open-database.js';
import { tenantFolder, type TenantFolder } from './store/availability/tenant-folder.js';
import {
  checkUserServer,
  launchUserServer,
  SINGLE_USER_POLICY,
  type UserServerPolicy,
} from './store/availability/user-server-policy.js';
import { WriteObserver } from './store/database/write-observer.js';
import type { LaunchPlan } from './connections/pool/pool-store.js';
import { AVAILABILITY, type ImportResult, type RegistryOptions } from './registry-options.js';
import { indexAppServers } from './store/availability/app-servers.js';
import { emitChange, type ChangeFeed, type RegistryChange } from './store/changes/change-feed.js';
import { TenantStore } from './store/tenant-store.js';
import { importServerFile } from './server-import.js';

/**
 * The source of truth for who has which servers, with which credentials, in which state.
 * Every method takes the context and touches only its tenant's rows.
 */
export class Registry extends TenantStore {
  readonly #db: Executor;
  #closed: Promise<void> | undefined;
  readonly #feed: ChangeFeed | undefined;
  readonly #appServers: ReadonlyMap<string, ServerConfig>;
  readonly #onClose: (() => Promise<void>) | undefined;
  readonly #userServers: UserServerPolicy;
  readonly #home: string;
  readonly #availabilityMemo = new WeakMap<
    AgentContext,
    { generation: number; pass: Promise<Availability> }
  >();
  // Bumped by every write through this registry: a memoised availability is then stale.
  #generation = 0;

  constructor(options: RegistryOptions) {
    // Any write through this registry makes memoised availability stale, whichever table.
    // The observer exists before `this` may be used: it calls through `written`, set after super.
    const written = { then: (): void => undefined };
    const observed = options.db.withPlugin(new WriteObserver(() => written.then()));
    super(observed, options.db, options.keyring, options.quotas, options.auditRetention);
    written.then = () => (this.#generation += 1);
    this.#db = observed;
    this.#home = resolveHome(options.home);
    this.#onClose = options.onClose;
    this.#userServers = options.userServers ?? SINGLE_USER_POLICY;
    this.#appServers = indexAppServers(options.appServers ?? []);
    this.#feed = options.changeFeed;
    // Another process's change: whatever this process memoised or holds of it is stale.
    this.#feed?.subscribe((change) => {
      this.#generation += 1;
      emitChange(this.events, change);
    });
  }

  // Emits a change here and announces it to the other processes.
  async #announce(change: RegistryChange): Promise<void> {
    emitChange(this.events, change);
    await this.#feed?.publish(change);
  }

  /** The feed that carries changes between processes, if there is one. */
  get changeFeed(): ChangeFeed | undefined {
    return this.#feed;
  }

  /**
   * Tells the change feed that this process holds something another process's change could
   * make stale while `held()` is true (the pool: open connections); a SQLite feed polls only
   * then. Returns the function that withdraws it.
   */
  followChangesWhile(held: () => boolean): () => void {
    return this.#feed?.followWhile?.(held) ?? (() => undefined);
  }

  /** The database handle, for maintenance such as `rotateSecrets`. */
  get db(): Executor {
    return this.#db;
  }

  /** What tenants may register as their own servers. */
  get userServerPolicy(): UserServerPolicy {
    return this.#userServers;
  }

  /** The tenant's own folder under the registry home (created when first needed). */
  tenantFolder(ctx: AgentContext): TenantFolder {
    return tenantFolder(this.#home, ctx.userId);
  }

  /** The app servers, by id. */
  get appServers(): ReadonlyMap<string, ServerConfig> {
    return this.#appServers;
  }

  /** Every server of the tenant with why it is excluded, if it is (disabled, thread, allow). */
  async tiers(ctx: AgentContext, options: ActiveServersOptions = {}): Promise<TierEntry[]> {
    const threadId = options.threadId ?? ctx.threadId;
    const [rows, activated] = await Promise.all([
      this.connections.list(ctx),
      threadId === undefined ? Promise.resolve([]) : this.threads.list(ctx, threadId),
    ]);
    return resolveTiers(this.#appServers, rows, activated, options.allow);
  }

  /** The servers in effect for this request: app and user tiers, thread, allow-list. */
  async activeServers(
    ctx: AgentContext,
    options: ActiveServersOptions = {},
  ): Promise<ActiveServer[]> {
    const entries = await this.tiers(ctx, options);
    return entries
      .filter((entry) =>
        options.includeDisabled
          ? entry.excludedBy !== 'not_allowed' && entry.excludedBy !== 'disabled_in_thread'
          : entry.excludedBy === undefined,
      )
      .map((entry) => entry.server);
  }

  /**
   * The one availability pass of a request: every server of the tenant after tiers, the
   * context's thread and allow-list, with authorisation, readiness and catalog version — a
   * constant number of queries however many servers there are. A context that carries a pass
   * (the {@link AVAILABILITY} slot) gets that one back without a query.
   */
  async availability(ctx: AgentContext): Promise<Availability> {
    const attached = ctx.find(AVAILABILITY);
    if (attached !== undefined) return attached;
    // Memoised per context object until any change is reported, so the layers of one request
    // (inventory, search, deep view, dispatch) share one pass.
    const memo = this.#availabilityMemo.get(ctx);
    if (memo !== undefined && memo.generation === this.#generation) return memo.pass;
    const pass = this.#availabilityPass(ctx);
    this.#availabilityMemo.set(ctx, { generation: this.#generation, pass });
    pass.catch(() => this.#availabilityMemo.delete(ctx));
    return pass;
  }

  async #availabilityPass(ctx: AgentContext): Promise<Availability> {
    const [entries, oauth] = await Promise.all([
      this.tiers(ctx, ctx.allowServers === undefined ? {} : { allow: ctx.allowServers }),
      this.authConfigs.oauthAuthorizations(ctx),
    ]);
    return new Availability(
      entries.map(({ server, excludedBy }) => {
        const authorized = oauth.get(server.id) ?? true;
        return {
          ...server,
          excludedBy,
          authorized,
          verdict: judgeServer(server, excludedBy, authorized),
        };
      }),
    );
  }

  /**
   * Adds or replaces a user server at runtime; emits `server-registered` or `server-updated`.
   * @throws ConfigError (`CONFIG_INVALID`) for a bad definition, PolicyDeniedError if refused.
   */
  async addServer(ctx: AgentContext, input: unknown): Promise<ConnectionRecord> {
    checkUserServer(this.#userServers, parseServerConfig(input), this.tenantFolder(ctx));
    const existed = (await this.connections.find(ctx, readId(input)))?.scope === 'user';
    const record = await this.connections.upsertUserServer(ctx, input);
    await this.audit.record(ctx, {
      action: existed ? 'server.updated' : 'server.added',
      serverId: record.serverId,
      detail: { transport: record.transport },
    });
    await this.#announce({
      kind: existed ? 'server-updated' : 'server-registered',
      change: { userId: ctx.userId, serverId: record.serverId, scope: 'user' },
    });
    return record;
  }

  /** Removes a user server; `ServerNotFoundError` when the tenant has none by that id. */
  async removeServer(ctx: AgentContext, serverId: string): Promise<void> {
    if (!(await this.connections.remove(ctx, serverId))) throw notFound(serverId);
    await this.audit.record(ctx, { action: 'server.removed', serverId });
    await this.#announce({
      kind: 'server-removed',
      change: { userId: ctx.userId, serverId, scope: 'user' },
    });
  }

  /**
   * Imports an `mcpServers` or VS Code file as user servers, all or nothing: the file is
   * validated whole first, then written in one transaction, secrets into the vault. With
   * `partial`, the valid and allowed servers are written and the others listed in `rejected`.
   */
  importServers(
    ctx: AgentContext,
    file: unknown,
    options: ParseConfigFileOptions = {},
  ): Promise<ImportResult> {
    return importServerFile(
      {
        db: this.#db,
        connections: this.connections,
        audit: this.audit,
        userServerPolicy: this.#userServers,
        tenantFolder: (c) => this.tenantFolder(c),
        announce: (change) => this.#announce(change),
      },
      ctx,
      file,
      options,
    );
  }

  /**
   * Enables or disables one of the tenant's own servers; a disabled server stays stored, out of
   * every request, and its session closes. App servers are the operator's: `POLICY_DENIED`.
   */
  async setServerEnabled(ctx: AgentContext, serverId: string, enabled: boolean): Promise<void> {
    const row = await this.connections.find(ctx, serverId);
    if (row === undefined && !this.#appServers.has(serverId)) throw notFound(serverId);
    // An app server, with a state row or without: the operator's.
    if (row?.scope !== 'user')
      throw new PolicyDeniedError(
        `Server "${serverId}" is set up by the operator for every user; it cannot be ${enabled ? 'enabled' : 'disabled'} per user.`,
        { details: { serverId } },
      );
    await this.connections.setEnabled(ctx, serverId, enabled);
    await this.audit.record(ctx, {
      action: enabled ? 'server.enabled' : 'server.disabled',
      serverId,
    });
    await this.#announce({
      kind: 'server-updated',
      change: { userId: ctx.userId, serverId, scope: 'user' },
    });
  }

  /** The full definition of a server in effect for the tenant, secrets included: pool only. */
  async resolveServer(ctx: AgentContext, serverId: string): Promise<ServerConfig> {
    const row = await this.connections.find(ctx, serverId);
    if (row?.scope === 'user') {
      const server = await this.connections.resolveUserServer(ctx, serverId);
      // Checked again at launch: the server may predate the policy or come from the CLI.
      return launchUserServer(this.#userServers, server, this.tenantFolder(ctx));
    }
    const app = this.#appServers.get(serverId);
    if (app === undefined) throw notFound(serverId);
    return app;
  }

  /** How the pool opens `serverId` for the tenant (see `PoolStore`). */
  async launchPlan(ctx: AgentContext, serverId: string): Promise<LaunchPlan> {
    const [config, row, auth] = await Promise.all([
      this.resolveServer(ctx, serverId),
      this.connections.find(ctx, serverId),
      this.authConfigs.find(ctx, serverId),
    ]);
    const remote = config.transport !== 'stdio';
    return {
      config,
      oauth: remote && auth?.kind === 'oauth',
      publicOnly: remote && row?.scope === 'user' && this.#userServers.remote === 'public',
      ...(row === undefined
        ? {}
        : {
            lastState: {
              status: row.status,
              lastError: row.lastError,
              recordedAt: Date.parse(row.updatedAt),
            },
          }),
    };
  }

  /**
   * Replaces a server's cached tool list (see `ToolCatalogRepository.replace`) and emits
   * `catalog-changed` when anything changed, so caches of tools and validators drop it.
   */
  async replaceCatalog(
    ctx: AgentContext,
    serverId: string,
    tools: readonly unknown[],
  ): Promise<CatalogUpdate> {
    const stored = await this.catalog.replace(ctx, serverId, tools);
    const rejected = new Set(stored.rejected.map((r) => r.index));
    const update: CatalogUpdate = {
      ...stored,
      flagged: scanToolDefinitions(
        tools.filter((_, index) => !rejected.has(index)),
        await this.#otherServersTools(ctx, serverId),
      ),
    };
    if (
      update.added.length + update.removed.length + update.changed.length > 0 ||
      update.version === 1
    ) {
      const scope = (await this.connections.find(ctx, serverId))?.scope ?? 'app';
      await this.#announce({
        kind: 'catalog-changed',
        change: { userId: ctx.userId, serverId, scope, update },
      });
    }
    return update;
  }

  /**
   * The poisoning findings of a server's stored tools, scanned as `replaceCatalog` scans them
   * (against the tenant's other servers, for shadowing): what a status view shows beside them.
   */
  async toolFindings(ctx: AgentContext, serverId: string): Promise<ToolFinding[]> {
    const tools = await this.catalog.list(ctx, serverId);
    return scanToolDefinitions(
      tools.map((tool) => tool.raw),
      await this.#otherServersTools(ctx, serverId),
    );
  }

  // The tenant's other servers' tool names, each with its server: what shadowing would mention.
  async #otherServersTools(ctx: AgentContext, serverId: string): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const tool of await this.catalog.toolNames(ctx))
      if (tool.serverId !== serverId) names.set(tool.name, tool.serverId);
    return names;
  }

  /** Records a readiness change (from the pool) and emits `state-changed`. */
  async recordState(
    ctx: AgentContext,
    serverId: string,
    update: ConnectionStateUpdate,
  ): Promise<ConnectionRecord> {
    const record = await this.connections.recordState(
      ctx,
      serverId,
      update,
      this.#appServers.get(serverId),
    );
    await this.#announce({
      kind: 'state-changed',
      change: {
        userId: ctx.userId,
        serverId,
        scope: record.scope,
        status: record.status,
        lastError: record.lastError,
      },
    });
    return record;
  }

  /** Closes what the registry owns (its change feed, the database when it opened it); once. */
  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<void> {
    this.events.removeAllListeners();
    this.#generation += 1;
    // Usage written behind is written, and leased calls unspent returned, before the database
    // closes: a clean stop loses nothing, and a write that fails says so after the rest closed.
    const flushed = await Promise.all([this.usage.flush(), this.quotas.release()]).then(
      () => undefined,
      (error: unknown) => error,
    );
    await this.#feed?.close();
    await this.#onClose?.();
    if (flushed !== undefined) throw flushed;
  }
}

function readId(input: unknown): string {
  const id = (input as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : '';
}

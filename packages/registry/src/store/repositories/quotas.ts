import { sql } from 'kysely';
import { ExpiringCache, type AgentContext } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { CallLeases } from './call-leases.js';
import { exceeded, serversExceeded } from './quota-refusals.js';
import { dayStart, DAY, HOUR, hourWindow } from './quota-windows.js';
import { count } from '../database/count.js';
import { timestamp } from '../database/timestamp.js';
import {
  parseQuotaLimits,
  parseUserQuotaLimits,
  type QuotaLimits,
  type QuotaName,
  type UserQuotaLimits,
} from '../limits/quota-limits.js';

/** What a tenant used of each windowed quota, and the limits in force. */
export interface QuotaStatus {
  /** The limits in force: the tenant's own where set, the deployment's otherwise. */
  readonly limits: QuotaLimits;
  /** Tool calls spent this UTC hour (calls this process leased but did not spend left out). */
  readonly callsThisHour: number;
  /** Model tokens counted since 00:00 UTC. */
  readonly tokensToday: number;
  /** When the hour's count resets (ISO 8601 UTC, the next full hour). */
  readonly hourResetsAt: string;
  /** When the day's count resets (ISO 8601 UTC, the next midnight). */
  readonly dayResetsAt: string;
}

const DONE = Promise.resolve();
// A thread's server count is forgotten once the thread has been idle this long.
const THREAD_IDLE_MS = 30 * DAY;

const COLUMNS = {
  maxCallsPerHour: 'max_calls_per_hour',
  maxTokensPerDay: 'max_tokens_per_day',
  maxServersPerThread: 'max_servers_per_thread',
} as const satisfies Record<QuotaName, string>;

/**
 * Quotas per tenant: the deployment's limits, each tenant's own (a row of `user_quotas`, read
 * at most every 5 s per process), and counters in `quota_counters` that every process on the
 * database shares. A count is taken with one conditional upsert (`used + n <= limit`), atomic on
 * both dialects, so concurrent callers never pass the calls limit (nor the servers limit, but
 * for one call of a server being counted); tokens are known only after a response, so that
 * limit holds within one model request per caller. Calls are taken in leased blocks
 * (`CallLeases`): never past the limit, and no round trip per call.
 */
export class QuotaRepository {
  readonly #db: Executor;
  readonly #defaults: QuotaLimits;
  readonly #own = new ExpiringCache<string, UserQuotaLimits>({ maxEntries: 10_000, ttlMs: 5_000 });
  // Held as long as the tenant's row is (#own's bound and expiry).
  readonly #merged = new WeakMap<UserQuotaLimits, QuotaLimits>();
  readonly #calls: CallLeases;
  // (user, thread, server) already counted: a repeat call skips the insert for a minute. Forgetting
  // an idle thread elsewhere can leave a server uncounted for at most that minute.
  readonly #counted = new ExpiringCache<string, true>({ maxEntries: 10_000, ttlMs: 60_000 });

  constructor(db: Executor, defaults: QuotaLimits = {}) {
    this.#db = db;
    this.#defaults = parseQuotaLimits(defaults);
    this.#calls = new CallLeases(
      (ctx, window, amount, max) => this.#take(ctx, 'calls_per_hour', window, amount, max),
      async (userId, window, amount) => {
        await this.#db
          .updateTable('quota_counters')
          .set({ used: sql<number>`used - ${amount}` })
          .where('user_id', '=', userId)
          .where('counter', '=', 'calls_per_hour')
          .where('window_key', '=', window)
          .execute();
      },
    );
  }

  /** Returns the calls this process leased and did not spend (see `CallLeases`). */
  release(): Promise<void> {
    return this.#calls.release();
  }

  /** The deployment's limits. */
  get defaults(): QuotaLimits {
    return this.#defaults;
  }

  /** The tenant's own limits as stored (without the deployment's). */
  async userLimits(ctx: AgentContext): Promise<UserQuotaLimits> {
    const cached = this.#own.get(ctx.userId);
    if (cached !== undefined) return cached;
    const row = await this.#db
      .selectFrom('user_quotas')
      .selectAll()
      .where('user_id', '=', ctx.userId)
      .executeTakeFirst();
    const own: UserQuotaLimits =
      row === undefined
        ? {}
        : {
            maxCallsPerHour: count(row.max_calls_per_hour),
            maxTokensPerDay: count(row.max_tokens_per_day),
            maxServersPerThread: count(row.max_servers_per_thread),
          };
    this.#own.set(ctx.userId, own);
    return own;
  }

  /** The limits in force for the tenant: its own where set, the deployment's otherwise. */
  async limits(ctx: AgentContext): Promise<QuotaLimits> {
    return this.#inForce(await this.userLimits(ctx));
  }

  // The tenant's own limits over the deployment's, merged once per read of the tenant's row.
  #inForce(own: UserQuotaLimits): QuotaLimits {
    let merged = this.#merged.get(own);
    if (merged === undefined) {
      const limits: Record<string, number> = { ...this.#defaults };
      for (const name of Object.keys(COLUMNS) as QuotaName[]) {
        const value = own[name];
        if (value !== undefined && value !== null) limits[name] = value;
      }
      merged = limits;
      this.#merged.set(own, merged);
    }
    return merged;
  }

  /**
   * Sets the tenant's own limits (an operator's act): a number replaces the deployment's limit,
   * `null` returns to it, a name left out keeps what was stored.
   *
   * @throws ConfigError (`CONFIG_INVALID`) naming each limit that is not a whole number ≥ 0.
   */
  async setUserLimits(ctx: AgentContext, limits: UserQuotaLimits): Promise<UserQuotaLimits> {
    const given = parseUserQuotaLimits(limits);
    const current = await this.userLimits(ctx);
    const next = { ...current, ...given };
    const values = {
      max_calls_per_hour: next.maxCallsPerHour ?? null,
      max_tokens_per_day: next.maxTokensPerDay ?? null,
      max_servers_per_thread: next.maxServersPerThread ?? null,
      updated_at: timestamp(ctx),
    };
    await this.#db
      .insertInto('user_quotas')
      .values({ user_id: ctx.userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    this.#own.delete(ctx.userId);
    return this.userLimits(ctx);
  }

  /**
   * Before a tool call of `serverId`: counts it against `maxCallsPerHour`, and the server against
   * `maxServersPerThread` — in the database for `threadId`, or in `taskServers` (the servers of a
   * task without a thread, which runs in one process).
   *
   * @throws QuotaExceededError (`QUOTA_EXCEEDED`) when a limit is reached; its `details` name
   *   the limit, its value and when it resets (`retryAfterMs`; `null` for the servers limit).
   */
  beforeToolCall(
    ctx: AgentContext,
    serverId: string,
    options: { threadId?: string | undefined; taskServers?: Set<string> } = {},
  ): Promise<void> {
    return this.admitNow(ctx, options) ? DONE : this.#beforeToolCall(ctx, serverId, options);
  }

  /**
   * {@link beforeToolCall}'s hot path, without an await: true when the call is admitted (and
   * counted) now, because the tenant's limits are known, no servers limit applies to it, and the
   * hour's calls are unlimited or one is held unspent; false, having done nothing, otherwise.
   */
  admitNow(
    ctx: AgentContext,
    options: { threadId?: string | undefined; taskServers?: Set<string> },
  ): boolean {
    const own = this.#own.get(ctx.userId);
    const limits = own === undefined ? undefined : this.#inForce(own);
    return (
      limits !== undefined &&
      (limits.maxServersPerThread === undefined ||
        (options.threadId === undefined && options.taskServers === undefined)) &&
      (limits.maxCallsPerHour === undefined ||
        this.#calls.spendHeld(ctx.userId, hourWindow(ctx.clock.now())))
    );
  }

  async #beforeToolCall(
    ctx: AgentContext,
    serverId: string,
    options: { threadId?: string | undefined; taskServers?: Set<string> },
  ): Promise<void> {
    const limits = await this.limits(ctx);
    const now = ctx.clock.now();
    const maxServers = limits.maxServersPerThread;
    if (maxServers !== undefined) {
      if (options.threadId !== undefined)
        await this.#countThreadServer(ctx, options.threadId, serverId, maxServers);
      else if (options.taskServers !== undefined && !options.taskServers.has(serverId)) {
        if (options.taskServers.size >= maxServers) throw serversExceeded(maxServers, serverId);
        options.taskServers.add(serverId);
      }
    }
    if (limits.maxCallsPerHour === undefined) return;
    const window = hourWindow(now);
    if (!(await this.#calls.spend(ctx, window, limits.maxCallsPerHour))) {
      throw exceeded('maxCallsPerHour', limits.maxCallsPerHour, 'this hour', window, HOUR, now);
    }
  }

  /**
   * Before a model request: counts nothing (tokens are known after the response).
   * @throws QuotaExceededError (`QUOTA_EXCEEDED`) once today's tokens reached `maxTokensPerDay`.
   */
  async beforeModelRequest(ctx: AgentContext): Promise<void> {
    const { maxTokensPerDay } = await this.limits(ctx);
    if (maxTokensPerDay === undefined) return;
    const now = ctx.clock.now();
    const day = dayStart(now);
    const row = await this.#db
      .selectFrom('quota_counters')
      .select('used')
      .where('user_id', '=', ctx.userId)
      .where('counter', '=', 'tokens_per_day')
      .where('window_key', '=', day)
      .executeTakeFirst();
    const used = count(row?.used) ?? 0;
    if (used >= maxTokensPerDay)
      throw exceeded('maxTokensPerDay', maxTokensPerDay, 'today', day, DAY, now, used);
  }

  /** Adds a model response's tokens to the day's count (when a tokens quota is in force). */
  async addTokens(ctx: AgentContext, tokens: number): Promise<void> {
    if (tokens <= 0 || (await this.limits(ctx)).maxTokensPerDay === undefined) return;
    await this.#take(ctx, 'tokens_per_day', dayStart(ctx.clock.now()), tokens, undefined);
  }

  /**
   * Refuses when a windowed quota of the tenant is used up — the day's tokens or the hour's
   * calls — without counting anything: what a surface asks before it accepts a task.
   * @throws QuotaExceededError (`QUOTA_EXCEEDED`), its `details` saying when the quota resets.
   */
  async check(ctx: AgentContext): Promise<void> {
    const status = await this.status(ctx);
    const { maxCallsPerHour, maxTokensPerDay } = status.limits;
    const now = ctx.clock.now();
    if (maxTokensPerDay !== undefined && status.tokensToday >= maxTokensPerDay) {
      const day = dayStart(now);
      throw exceeded(
        'maxTokensPerDay',
        maxTokensPerDay,
        'today',
        day,
        DAY,
        now,
        status.tokensToday,
      );
    }
    if (maxCallsPerHour !== undefined && status.callsThisHour >= maxCallsPerHour) {
      const hour = hourWindow(now);
      throw exceeded(
        'maxCallsPerHour',
        maxCallsPerHour,
        'this hour',
        hour,
        HOUR,
        now,
        status.callsThisHour,
      );
    }
  }

  /** What the tenant used this hour and today, against the limits in force. */
  async status(ctx: AgentContext): Promise<QuotaStatus> {
    const now = ctx.clock.now();
    const hour = hourWindow(now);
    const day = dayStart(now);
    const rows = await this.#db
      .selectFrom('quota_counters')
      .select(['counter', 'window_key', 'used'])
      .where('user_id', '=', ctx.userId)
      .where((eb) =>
        eb.or([
          eb.and([eb('counter', '=', 'calls_per_hour'), eb('window_key', '=', hour)]),
          eb.and([eb('counter', '=', 'tokens_per_day'), eb('window_key', '=', day)]),
        ]),
      )
      .execute();
    const used = (counter: string) => count(rows.find((r) => r.counter === counter)?.used) ?? 0;
    return {
      limits: await this.limits(ctx),
      // What this process leased and has not spent is not used.
      callsThisHour: used('calls_per_hour') - this.#calls.held(ctx.userId, hour),
      tokensToday: used('tokens_per_day'),
      hourResetsAt: new Date(Date.parse(hour) + HOUR).toISOString(),
      dayResetsAt: new Date(Date.parse(day) + DAY).toISOString(),
    };
  }

  // One server more for the thread, unless it is at its limit: the server's row first, then the
  // thread's counter's conditional upsert decides, and a refusal takes the row back. Distinct
  // servers racing are counted exactly; a caller of the same server while the first is being
  // counted passes at once (within one call). No transaction spans the two statements: on
  // SQLite, one held across an await would block another connection of the same process.
  async #countThreadServer(
    ctx: AgentContext,
    threadId: string,
    serverId: string,
    max: number,
  ): Promise<void> {
    const key = threadId.slice(0, 500);
    const counted = `${ctx.userId}\0${key}\0${serverId}`;
    if (this.#counted.get(counted) !== undefined) return;
    const now = timestamp(ctx);
    const added = await this.#db
      .insertInto('quota_thread_servers')
      .values({ user_id: ctx.userId, thread_id: key, server_id: serverId, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'thread_id', 'server_id']).doNothing())
      .returning('server_id')
      .executeTakeFirst();
    if (added === undefined) return this.#counted.set(counted, true);
    if ((await this.#take(ctx, 'servers_per_thread', key, 1, max)) !== undefined) {
      this.#counted.set(counted, true);
      return this.#forgetIdleThreads(ctx);
    }
    await this.#db
      .deleteFrom('quota_thread_servers')
      .where('user_id', '=', ctx.userId)
      .where('thread_id', '=', key)
      .where('server_id', '=', serverId)
      .execute();
    throw serversExceeded(max, serverId);
  }

  // Adds `amount` to a counter, only while it is below `max` when one is given; the new count,
  // or undefined when refused. A new window drops the tenant's older windows of that counter.
  async #take(
    ctx: AgentContext,
    counter: string,
    window: string,
    amount: number,
    max: number | undefined,
  ): Promise<number | undefined> {
    const db = this.#db;
    if (max !== undefined && max < amount) return undefined;
    const now = timestamp(ctx);
    const row = await db
      .insertInto('quota_counters')
      .values({ user_id: ctx.userId, counter, window_key: window, used: amount, updated_at: now })
      .onConflict((oc) => {
        const update = oc.columns(['user_id', 'counter', 'window_key']).doUpdateSet({
          used: sql<number>`quota_counters.used + ${amount}`,
          updated_at: now,
        });
        return max === undefined
          ? update
          : update.where(sql<boolean>`quota_counters.used + ${amount} <= ${max}`);
      })
      .returning('used')
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const used = count(row.used) ?? 0;
    if (used === amount && counter !== 'servers_per_thread') {
      await db
        .deleteFrom('quota_counters')
        .where('user_id', '=', ctx.userId)
        .where('counter', '=', counter)
        .where('window_key', '<', window)
        .execute();
    }
    return used;
  }

  async #forgetIdleThreads(ctx: AgentContext): Promise<void> {
    const db = this.#db;
    const cutoff = new Date(ctx.clock.now() - THREAD_IDLE_MS).toISOString();
    const idle = db
      .selectFrom('quota_counters')
      .select('window_key')
      .where('user_id', '=', ctx.userId)
      .where('counter', '=', 'servers_per_thread')
      .where('updated_at', '<', cutoff);
    await db
      .deleteFrom('quota_thread_servers')
      .where('user_id', '=', ctx.userId)
      .where('thread_id', 'in', idle)
      .execute();
    await db
      .deleteFrom('quota_counters')
      .where('user_id', '=', ctx.userId)
      .where('counter', '=', 'servers_per_thread')
      .where('updated_at', '<', cutoff)
      .execute();
  }
}

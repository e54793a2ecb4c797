import { randomUUID } from 'node:crypto';
import { silentLogger, systemClock, type Clock, type Logger } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import type { RegistryChange } from './change-feed.js';
import { SequenceCursor } from './sequence-cursor.js';

/** How a feed follows the log: who it is, where it reports, how long rows are kept. */
export interface LogFollowing {
  /** This process's id in the log; its own changes are not delivered back to it. */
  readonly origin: string;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Changes are kept this long for processes catching up. */
  readonly retentionMs: number;
}

/** A feed's {@link LogFollowing} from its options: a fresh origin, no logging, the system clock, 24 h. */
export function followingFrom(options: {
  readonly origin?: string;
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly retentionMs?: number;
}): LogFollowing {
  return {
    origin: options.origin ?? `proc_${randomUUID()}`,
    logger: options.logger ?? silentLogger,
    clock: options.clock ?? systemClock,
    retentionMs: options.retentionMs ?? 24 * 3_600_000,
  };
}

const PAGE = 500;
const PRUNE_EVERY_MS = 10 * 60_000;

/** One change as the log holds it. */
export interface LoggedChange {
  readonly seq: number;
  readonly origin: string;
  readonly change: RegistryChange;
}

/**
 * The registry's change log (`registry_changes`): what a feed delivers and what a process that
 * missed notices reads again. It crosses tenants by design (every process follows every
 * tenant's changes) and holds no secret: ids, names, states and catalog differences. Rows older
 * than the retention are pruned.
 */
export class ChangeLog {
  #following: LogFollowing | undefined;
  #cursor: SequenceCursor | undefined;
  #reading: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #lastReadAt = 0;
  #lastPruneAt = 0;

  /** `following`: given by a feed that reads the log for its process (see {@link readNew}). */
  constructor(
    private readonly db: Executor,
    following?: LogFollowing,
  ) {
    this.#following = following;
  }

  /** Starts following at the newest change: only changes made after this are delivered. */
  async follow(): Promise<void> {
    this.#cursor = new SequenceCursor(await this.latest());
    this.#lastReadAt = this.#following?.clock.now() ?? 0;
  }

  /** Says the log was checked and holds nothing new, without reading it (SQLite's data_version). */
  upToDate(): void {
    this.#lastReadAt = this.#following?.clock.now() ?? 0;
  }

  /** Stops delivering; resolves when a read under way has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#reading;
  }

  /**
   * The one read loop of every feed: reads the changes after the cursor, page by page, hands
   * each one not yet seen and not made here to `receive` in order (a receiver that throws is
   * logged and the read goes on), and prunes rows past the retention now and then.
   * Single-flight: a call during a read makes that read go once more, and gets its promise.
   * Never rejects: a failed read is logged and the next one starts from the same cursor.
   */
  readNew(receive: ((change: RegistryChange) => void) | undefined): Promise<void> {
    if (this.#stopped || this.#cursor === undefined || this.#following === undefined)
      return Promise.resolve();
    const following = this.#following;
    this.#again = true;
    this.#reading ??= (async () => {
      try {
        while (this.#again && !this.#stopped) {
          this.#again = false;
          await this.#readOnce(following, receive);
        }
      } catch (error) {
        following.logger.warn(
          { error: (error as Error).message },
          'reading the registry change log failed',
        );
      } finally {
        this.#reading = undefined;
      }
    })();
    return this.#reading;
  }

  async #readOnce(
    following: LogFollowing,
    receive: ((change: RegistryChange) => void) | undefined,
  ): Promise<void> {
    const cursor = this.#cursor as SequenceCursor;
    const now = following.clock.now();
    if (now - this.#lastReadAt > following.retentionMs)
      following.logger.warn(
        { sinceMs: now - this.#lastReadAt },
        'registry changes may have been missed: the log was not read for longer than it is kept; restart this process to drop every cache',
      );
    let from = cursor.floor;
    for (;;) {
      const rows = await this.after(from, PAGE);
      const fresh = new Set(
        cursor.accept(
          rows.map((row) => row.seq),
          following.clock.now(),
        ),
      );
      for (const row of rows) {
        if (!fresh.has(row.seq) || row.origin === following.origin || this.#stopped) continue;
        try {
          receive?.(row.change);
        } catch (error) {
          following.logger.warn(
            { error: (error as Error).message },
            'a registry change listener failed',
          );
        }
      }
      if (rows.length < PAGE) break;
      from = (rows.at(-1) as { seq: number }).seq;
    }
    this.#lastReadAt = now;
    if (now - this.#lastPruneAt > PRUNE_EVERY_MS) {
      this.#lastPruneAt = now;
      await this.prune(now - following.retentionMs);
    }
  }

  /** The newest sequence number, or 0 for an empty log. */
  async latest(): Promise<number> {
    const row = await this.db
      .selectFrom('registry_changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** Changes after `seq`, in order, at most `limit`. */
  async after(seq: number, limit = 500): Promise<LoggedChange[]> {
    const rows = await this.db
      .selectFrom('registry_changes')
      .selectAll()
      .where('seq', '>', seq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      seq: Number(row.seq),
      origin: row.origin,
      change: {
        kind: row.kind,
        change: {
          ...(JSON.parse(row.detail) as object),
          userId: row.user_id,
          serverId: row.server_id,
          scope: row.scope,
        },
      } as RegistryChange,
    }));
  }

  /** The row of `change` made by `origin`, for an insert (the database numbers it). */
  static row(change: RegistryChange, origin: string, createdAt: string) {
    const { userId, serverId, scope, ...detail } = change.change;
    return {
      user_id: userId,
      server_id: serverId,
      kind: change.kind,
      scope,
      detail: JSON.stringify(detail),
      origin,
      created_at: createdAt,
    };
  }

  /** Appends a change; returns its sequence number. */
  async append(change: RegistryChange, origin: string, now: number): Promise<number> {
    const row = await this.db
      .insertInto('registry_changes')
      .values(ChangeLog.row(change, origin, new Date(now).toISOString()))
      .returning('seq')
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  /** Deletes changes made before `before` (ms); returns how many. */
  async prune(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('registry_changes')
      .where('created_at', '<', new Date(before).toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

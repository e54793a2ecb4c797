import { sql } from 'kysely';
import type { Clock, Logger } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import type { ChangeFeed, RegistryChange } from './change-feed.js';
import { ChangeLog, followingFrom, type LogFollowing } from './change-log.js';

/** Options of {@link SqliteChangeFeed}. */
export interface SqliteChangeFeedOptions {
  /** The registry's database handle (its one SQLite connection): the log and `data_version`. */
  readonly db: Executor;
  /** This process's id in the log; its own changes are not delivered back to it. */
  readonly origin?: string;
  /** Where lost connections, failed publishes and missed spans of the log are warned about. */
  readonly logger?: Logger;
  /** The time changes are stamped and retention measured in; default the system's. */
  readonly clock?: Clock;
  /** How often `PRAGMA data_version` is asked, while anything is held; default 1 s. */
  readonly pollMs?: number;
  /** Changes are kept this long for processes catching up; default 24 h. */
  readonly retentionMs?: number;
}

/**
 * Registry changes across processes on one SQLite file (the CLI beside a running server). A
 * change is appended to the same log as on PostgreSQL (`registry_changes`); the others notice
 * it with `PRAGMA data_version`, which changes on a connection only when another connection
 * committed, so a poll costs one pragma and the log is read only after a foreign write. The
 * poll runs while a holder says something could go stale (the pool: while it holds
 * connections; see {@link followWhile}), or always when no holder was registered.
 */
export class SqliteChangeFeed implements ChangeFeed {
  readonly #options: SqliteChangeFeedOptions;
  readonly #log: ChangeLog;
  readonly #following: LogFollowing;
  readonly #holders = new Set<() => boolean>();
  #receive: ((change: RegistryChange) => void) | undefined;
  #started = false;
  #version: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;
  #closed = false;
  #polls = 0;

  constructor(options: SqliteChangeFeedOptions) {
    this.#options = options;
    this.#following = followingFrom(options);
    this.#log = new ChangeLog(options.db, this.#following);
  }

  /** How many times `data_version` was asked: a test sees the poll pause while nothing is held. */
  get polls(): number {
    return this.#polls;
  }

  subscribe(receive: (change: RegistryChange) => void): void {
    this.#receive = receive;
  }

  async start(): Promise<void> {
    await this.#log.follow();
    this.#started = true;
    this.#version = await this.#dataVersion();
    this.#timer = setInterval(() => this.poll(), this.#options.pollMs ?? 1_000);
    this.#timer.unref();
  }

  /**
   * Polls only while `held()` (or another holder's) is true; returns the function that removes
   * it. With no holder at all, the feed polls always.
   */
  followWhile(held: () => boolean): () => void {
    this.#holders.add(held);
    return () => this.#holders.delete(held);
  }

  async publish(change: RegistryChange): Promise<void> {
    try {
      await this.#log.append(change, this.#following.origin, this.#following.clock.now());
    } catch (error) {
      this.#following.logger.warn(
        { kind: change.kind, error: (error as Error).message },
        'registry change not logged for other processes; they see it when their caches expire',
      );
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#reading;
    await this.#log.stop();
  }

  /**
   * One poll, as the timer runs it: when anything is held and another connection wrote since
   * the last one, reads the log after the cursor. Single-flight; resolves when it is done.
   */
  poll(): Promise<void> {
    if (this.#closed || !this.#started) return Promise.resolve();
    if (this.#holders.size > 0 && ![...this.#holders].some((held) => held()))
      return Promise.resolve();
    this.#reading ??= this.#pollOnce()
      .catch((error: unknown) =>
        this.#following.logger.warn(
          { error: (error as Error).message },
          'reading the registry change log failed',
        ),
      )
      .finally(() => {
        this.#reading = undefined;
      });
    return this.#reading;
  }

  async #pollOnce(): Promise<void> {
    const version = await this.#dataVersion();
    // Unchanged: no other connection wrote, so nothing was missed however long ago the last read.
    if (version === this.#version) return this.#log.upToDate();
    this.#version = version;
    await this.#log.readNew(this.#receive);
  }

  async #dataVersion(): Promise<number> {
    this.#polls += 1;
    const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(
      this.#options.db,
    );
    return Number(rows[0]?.data_version ?? 0);
  }
}

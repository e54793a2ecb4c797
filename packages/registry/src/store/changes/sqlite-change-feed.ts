import { sql } from 'kysely';
import type { RegistryChange } from './change-feed.js';
import { LoggedChangeFeed, type LoggedChangeFeedOptions } from './logged-change-feed.js';

/**
 * Options of {@link SqliteChangeFeed}; `db` is the registry's one SQLite connection, which the
 * log and `data_version` both use.
 */
export interface SqliteChangeFeedOptions extends LoggedChangeFeedOptions {
  /** How often `PRAGMA data_version` is asked, while anything is held; default 1 s. */
  readonly pollMs?: number;
}

/**
 * Registry changes across processes on one SQLite file (the CLI beside a running server). A
 * change is appended to the same log as on PostgreSQL (`registry_changes`); the others notice
 * it with `PRAGMA data_version`, which changes on a connection only when another connection
 * committed, so a poll costs one pragma and the log is read only after a foreign write. The
 * poll runs while a holder says something could go stale (the pool: while it holds
 * connections; see {@link followWhile}), or always when no holder was registered.
 */
export class SqliteChangeFeed extends LoggedChangeFeed {
  readonly #options: SqliteChangeFeedOptions;
  readonly #holders = new Set<() => boolean>();
  #started = false;
  #version: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;
  #polls = 0;

  constructor(options: SqliteChangeFeedOptions) {
    super(options);
    this.#options = options;
  }

  /** How many times `data_version` was asked: a test sees the poll pause while nothing is held. */
  get polls(): number {
    return this.#polls;
  }

  /** Reads `data_version` once, then polls it every `pollMs`. */
  protected async startWaking(): Promise<void> {
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

  /** Appends the change to the log; the others notice it through `data_version`. */
  protected async write(change: RegistryChange): Promise<void> {
    await this.log.append(change, this.following.origin, this.following.clock.now());
  }

  /** Stops the poll and waits for one under way. */
  protected async stopWaking(): Promise<void> {
    clearInterval(this.#timer);
    await this.#reading;
  }

  /**
   * One poll, as the timer runs it: when anything is held and another connection wrote since
   * the last one, reads the log after the cursor. Single-flight; resolves when it is done.
   */
  poll(): Promise<void> {
    if (this.closed || !this.#started) return Promise.resolve();
    if (this.#holders.size > 0 && ![...this.#holders].some((held) => held()))
      return Promise.resolve();
    this.#reading ??= this.#pollOnce()
      .catch((error: unknown) =>
        this.following.logger.warn(
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
    if (version === this.#version) return this.log.upToDate();
    this.#version = version;
    await this.readNew();
  }

  async #dataVersion(): Promise<number> {
    this.#polls += 1;
    const { rows } = await sql<{ data_version: number }>`pragma data_version`.execute(
      this.#options.db,
    );
    return Number(rows[0]?.data_version ?? 0);
  }
}

import type { Clock, Logger } from '@mcp-agent/core';
import type { ChangeFeed, RegistryChange } from './change-feed.js';
import { ChangeLog, followingFrom, type LogFollowing } from './change-log.js';
import type { Executor } from '../database/executor.js';

/** The options every feed over the change log shares. */
export interface LoggedChangeFeedOptions {
  /** The registry's database handle, for the change log. */
  readonly db: Executor;
  /** This process's id in the log; its own changes are not delivered back to it. */
  readonly origin?: string;
  /** Where lost connections, failed publishes and missed spans of the log are warned about. */
  readonly logger?: Logger;
  /** The time changes are stamped and retention measured in; default the system's. */
  readonly clock?: Clock;
  /** Changes are kept this long for processes catching up; default 24 h. */
  readonly retentionMs?: number;
}

/**
 * A change feed over the registry's change log (`registry_changes`): a change is appended to
 * the log, and every process reads the log after its cursor and delivers what the others wrote
 * (`ChangeLog.readNew`, the one read loop). The feeds differ only in how a change is written
 * ({@link write}) and in what wakes a read ({@link startWaking}, {@link stopWaking}).
 */
export abstract class LoggedChangeFeed implements ChangeFeed {
  /** The log this feed appends to and reads. */
  protected readonly log: ChangeLog;
  /** Who this process is in the log, where it reports, and its clock. */
  protected readonly following: LogFollowing;
  #receive: ((change: RegistryChange) => void) | undefined;
  #closed = false;

  constructor(options: LoggedChangeFeedOptions) {
    this.following = followingFrom(options);
    this.log = new ChangeLog(options.db, this.following);
  }

  /** True once {@link close} was called: nothing wakes a read any more. */
  protected get closed(): boolean {
    return this.#closed;
  }

  /** Where other processes' changes go, in the order they were made; one receiver per feed. */
  subscribe(receive: (change: RegistryChange) => void): void {
    this.#receive = receive;
  }

  /** Follows the log from its newest change, then starts what wakes a read. */
  async start(): Promise<void> {
    await this.log.follow();
    await this.startWaking();
  }

  /** Writes a change made here for the other processes. Never rejects: a failure is logged. */
  async publish(change: RegistryChange): Promise<void> {
    try {
      await this.write(change);
    } catch (error) {
      // The change happened here; the others drop what they hold of it when their caches expire.
      this.following.logger.warn(
        { kind: change.kind, error: (error as Error).message },
        'registry change not announced to other processes; they see it when their caches expire',
      );
    }
  }

  /** Stops what wakes a read and the log's delivery; resolves when a read under way ended. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.stopWaking();
    await this.log.stop();
  }

  /** What a wake-up does: reads the log after the cursor and delivers what others wrote. */
  protected readNew(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return this.log.readNew(this.#receive);
  }

  /** Appends `change` to the log (and announces it, where the database can). */
  protected abstract write(change: RegistryChange): Promise<void>;

  /** Starts what wakes a read (a channel, a poll), once the log is followed. */
  protected abstract startWaking(): Promise<void>;

  /** Stops what wakes a read; resolves when a read it started has finished. */
  protected abstract stopWaking(): Promise<void>;
}

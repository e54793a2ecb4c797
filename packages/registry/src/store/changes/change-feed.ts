import type { EventEmitter } from 'node:events';
import type { RegistryEvents } from './registry-events.js';

/** One registry change as it travels between processes: the event's name and its payload. */
export type RegistryChange = {
  readonly [E in keyof RegistryEvents]: {
    /** The event's name. */
    readonly kind: E;
    /** The event's payload, as `Registry.events` emits it. */
    readonly change: RegistryEvents[E][0];
  };
}[keyof RegistryEvents];

/**
 * How registry changes made in one process reach the others on the same database, so that
 * every process's caches (the pool's connections, the resolver's tools, knowledge's indexes)
 * drop what changed. The database stays the source of truth: a feed delivers what the change
 * log holds, in order, and a process that missed notices catches up from the log.
 * `PostgresChangeFeed` is the PostgreSQL implementation (LISTEN/NOTIFY over the log),
 * `SqliteChangeFeed` the SQLite one (`PRAGMA data_version`, then the same log); `MemoryChangeHub`
 * is the test double.
 */
export interface ChangeFeed {
  /** Where other processes' changes go, in the order they were made; one receiver per feed. */
  subscribe(receive: (change: RegistryChange) => void): void;
  /** Starts following; resolves once a change published after this is sure to arrive. */
  start(): Promise<void>;
  /** Tells the other processes about a change made here. Never rejects: a failure is logged. */
  publish(change: RegistryChange): Promise<void>;
  /**
   * Follows only while `held()` (or another holder's) is true, for a feed that costs something
   * to follow (SQLite polls); returns the function that removes the holder. Absent: always.
   */
  followWhile?(held: () => boolean): () => void;
  /** Stops following and releases its connection. */
  close(): Promise<void>;
}

// One change as the event it stands for (the union narrows per kind; the emitter's overloads do not).
export function emitChange(
  events: EventEmitter<RegistryEvents>,
  { kind, change }: RegistryChange,
): void {
  (events as EventEmitter).emit(kind, change);
}

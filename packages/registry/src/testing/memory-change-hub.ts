import type { ChangeFeed, RegistryChange } from '../store/changes/change-feed.js';

/**
 * The in-memory double of a change feed: registries in one process that stand for processes on
 * one database. Each `feed()` hears every other feed's changes, in order, asynchronously (as a
 * real feed would), and never its own.
 */
export class MemoryChangeHub {
  readonly #feeds = new Set<MemoryChangeFeed>();

  /** A feed for one registry. */
  feed(): ChangeFeed {
    const feed = new MemoryChangeFeed(this.#feeds);
    return feed;
  }

  /** Feeds started and not closed. */
  get size(): number {
    return this.#feeds.size;
  }
}

class MemoryChangeFeed implements ChangeFeed {
  #receive: ((change: RegistryChange) => void) | undefined;

  constructor(private readonly feeds: Set<MemoryChangeFeed>) {}

  subscribe(receive: (change: RegistryChange) => void): void {
    this.#receive = receive;
  }

  async start(): Promise<void> {
    this.feeds.add(this);
  }

  async publish(change: RegistryChange): Promise<void> {
    // A copy through JSON, as a change crossing processes would be.
    const copy = JSON.parse(JSON.stringify(change)) as RegistryChange;
    for (const feed of this.feeds) if (feed !== this) setImmediate(() => feed.#deliver(copy));
  }

  async close(): Promise<void> {
    this.feeds.delete(this);
  }

  #deliver(change: RegistryChange): void {
    if (this.feeds.has(this)) this.#receive?.(change);
  }
}

import {
  toMcpAgentError,
  type AgentContext,
  type Logger,
  type MCPTaskResult,
  type StepEvent,
} from '@mcp-agent/core';
import type { Registry, StoredTaskEvent } from '@mcp-agent/registry';

/**
 * A durable task that runs in this process: its abort controller, its events in order (kept in
 * memory for followers here, written to the database for followers elsewhere), and its end.
 */
export class RunningTask {
  readonly id: string;
  readonly ctx: AgentContext;
  readonly controller = new AbortController();
  /** The events so far, numbered from 0; at most `maxEvents`, the rest counted in `dropped`. */
  readonly events: StoredTaskEvent[] = [];
  /** How it ended, once it did and the end was written. */
  result: MCPTaskResult | undefined;
  #dropped = 0;
  #pending: StoredTaskEvent[] = [];
  #writing: Promise<void> | undefined;
  readonly #wake = new Set<() => void>();

  constructor(
    id: string,
    ctx: AgentContext,
    private readonly registry: Registry,
    private readonly maxEvents: number,
    private readonly logger: Logger,
  ) {
    this.id = id;
    this.ctx = ctx;
  }

  /** Events past the bound, counted and not stored. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Records one event: numbered, kept, written in the background, followers woken. */
  record(event: StepEvent): void {
    if (this.events.length >= this.maxEvents) {
      this.#dropped += 1;
      return;
    }
    const stored = { seq: this.events.length, event };
    this.events.push(stored);
    this.#pending.push(stored);
    this.#writing ??= this.#write();
    this.#notify();
  }

  /** Resolves when every event recorded so far is written (or its write gave up). */
  async flushed(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  /** Marks the end (after it was written) and wakes every follower. */
  finished(result: MCPTaskResult): void {
    this.result = result;
    this.#notify();
  }

  /** Resolves at the next event or the end, or when `signal` aborts. */
  next(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#wake.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.#wake.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  #notify(): void {
    for (const wake of [...this.#wake]) wake();
  }

  // Writes what is pending in batches, in order; a failed batch is tried once more, then logged.
  async #write(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0, 100);
        try {
          await this.registry.tasks.appendEvents(this.ctx, this.id, batch);
        } catch {
          try {
            await this.registry.tasks.appendEvents(this.ctx, this.id, batch);
          } catch (error) {
            this.logger.warn(
              { taskId: this.id, events: batch.length, error: toMcpAgentError(error).message },
              'task events not stored: followers in other processes will not see them',
            );
          }
        }
      }
    } finally {
      this.#writing = undefined;
    }
  }
}

import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import { backoffDelay } from '@mcp-agent/core';
import type { RegistryChange } from './change-feed.js';
import { ChangeLog } from './change-log.js';
import { LoggedChangeFeed, type LoggedChangeFeedOptions } from './logged-change-feed.js';

/** Options of {@link PostgresChangeFeed}. */
export interface PostgresChangeFeedOptions extends LoggedChangeFeedOptions {
  /** The database URL; the feed holds one connection of its own for LISTEN. */
  readonly url: string;
  /** The registry's schema: each schema has its own channel. */
  readonly schema?: string;
  /** Read the log this often even without a notice (a safety net); default 2 s. */
  readonly pollMs?: number;
}

/**
 * Registry changes across processes on PostgreSQL. A change is appended to the log and
 * announced with `pg_notify` in the same statement; every process LISTENs on the schema's
 * channel and, on a notice (or every `pollMs`), reads the log after its cursor and delivers
 * what other processes wrote, in order. A lost connection is reopened with backoff and the log
 * read from where the cursor stands, so notices missed meanwhile are caught up from the table.
 */
export class PostgresChangeFeed extends LoggedChangeFeed {
  readonly #options: PostgresChangeFeedOptions;
  readonly #channel: string;
  #client: pg.Client | undefined;
  #poll: NodeJS.Timeout | undefined;
  #reconnect: NodeJS.Timeout | undefined;
  #attempt = 0;

  constructor(options: PostgresChangeFeedOptions) {
    super(options);
    this.#options = options;
    this.#channel = channelFor(options.schema);
  }

  /** The channel this feed LISTENs on. */
  get channel(): string {
    return this.#channel;
  }

  /** LISTENs on the channel and starts the safety-net poll. */
  protected async startWaking(): Promise<void> {
    await this.#connect();
    this.#poll = setInterval(() => this.#read(), this.#options.pollMs ?? 2_000);
    this.#poll.unref();
  }

  /** Appends the change and NOTIFYs the channel, in one statement. */
  protected async write(change: RegistryChange): Promise<void> {
    const row = ChangeLog.row(
      change,
      this.following.origin,
      new Date(this.following.clock.now()).toISOString(),
    );
    // One statement: the notice goes out when the row commits, never before and never alone.
    await sql`
      with inserted as (
        insert into registry_changes (user_id, server_id, kind, scope, detail, origin, created_at)
        values (${row.user_id}, ${row.server_id}, ${row.kind}, ${row.scope}, ${row.detail}, ${row.origin}, ${row.created_at})
        returning seq
      )
      select pg_notify(${this.#channel}, cast(seq as text)) from inserted`.execute(
      this.#options.db,
    );
  }

  /** Stops the poll and any reconnect, and closes the LISTEN connection. */
  protected async stopWaking(): Promise<void> {
    clearInterval(this.#poll);
    clearTimeout(this.#reconnect);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const { default: Pg } = await import('pg');
    const client = new Pg.Client({ connectionString: this.#options.url, keepAlive: true });
    client.on('notification', () => this.#read());
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client));
    await client.connect();
    await client.query(`listen "${this.#channel}"`);
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#attempt = 0;
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.closed || this.#client !== client) return;
    this.#client = undefined;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    this.following.logger.warn(
      { error: error?.message },
      'registry change feed lost its connection; reconnecting',
    );
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    if (this.closed) return;
    const delay = 100 + backoffDelay(this.#attempt++, { baseMs: 250, capMs: 5_000 });
    this.#reconnect = setTimeout(() => {
      this.#connect()
        // Back on the channel: whatever was announced meanwhile is in the log.
        .then(() => this.#read())
        .catch((error: unknown) => {
          this.following.logger.warn(
            { error: (error as Error).message },
            'registry change feed reconnect failed',
          );
          this.#scheduleReconnect();
        });
    }, delay);
    this.#reconnect.unref();
  }

  // What wakes this feed: a notice on the channel, the safety-net poll, a reconnect.
  #read(): void {
    void this.readNew();
  }
}

/** The notification channel of a schema: `mcp_agent_changes[_<schema>]`, at most 63 bytes. */
export function channelFor(schema: string | undefined): string {
  const base = 'mcp_agent_changes';
  if (schema === undefined || schema === 'public') return base;
  const name = `${base}_${schema.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
  return name.length <= 63
    ? name
    : `${base}_${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}

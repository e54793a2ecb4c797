import type { Executor } from '../database/executor.js';
import type { RegistryChange } from './change-feed.js';

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
  constructor(private readonly db: Executor) {}

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
          providerId: row.provider_id,
          scope: row.scope,
        },
      } as RegistryChange,
    }));
  }

  /** The row of `change` made by `origin`, for an insert (the database numbers it). */
  static row(change: RegistryChange, origin: string, createdAt: string) {
    const { userId, providerId, scope, ...detail } = change.change;
    return {
      user_id: userId,
      provider_id: providerId,
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

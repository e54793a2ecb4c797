import { sql } from 'kysely';
import type { AgentContext, ServerUsage, ModelUsage } from '@mcp-agent/core';
import { compareText } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';
import { count } from '../database/count.js';
import type { QuotaRepository } from './quotas.js';
import {
  MAX_USAGE_DAYS,
  type ModelUsageRecord,
  type TaskUsage,
  type ToolCallRecord,
  type UsageSummary,
  type UsageTotals,
} from './usage-records.js';
import { ToolCallWriteBehind, type ToolCallTally } from './usage-write-behind.js';

const NANOS = 1_000_000_000;
// Rows per statement: 9 parameters each, well under SQLite's and PostgreSQL's limits.
const WRITE_BATCH = 500;
const DAY_MS = 86_400_000;
const DONE = Promise.resolve();

/**
 * Usage per tenant and task: each model's tokens and estimated cost, each server's tool
 * calls, failures and time, one row per (task, model) and (task, server), added to with
 * atomic upserts; tool calls are written behind, in batches. Read back per task and as a tenant's totals by day, server and model.
 */
export class UsageRepository {
  readonly #toolCalls: ToolCallWriteBehind;

  constructor(
    private readonly db: Executor,
    private readonly quotas: QuotaRepository,
    writeBehind: { flushMs?: number; maxPending?: number } = {},
  ) {
    this.#toolCalls = new ToolCallWriteBehind((rows) => this.#writeToolCalls(rows), writeBehind);
  }

  /** Adds one model response to its task's row, and its tokens to the day's quota count. */
  async recordModel(ctx: AgentContext, record: ModelUsageRecord): Promise<void> {
    const now = timestamp(ctx);
    const { usage } = record;
    const cost =
      record.estimatedCostUsd === null ? null : Math.round(record.estimatedCostUsd * NANOS);
    await this.db
      .insertInto('usage_models')
      .values({
        user_id: ctx.userId,
        task_id: record.taskId,
        model: record.model.slice(0, 200),
        day: now.slice(0, 10),
        requests: 1,
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_read_tokens: usage.cacheReadTokens,
        cache_write_tokens: usage.cacheWriteTokens,
        cost_nanos: cost,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['user_id', 'task_id', 'model']).doUpdateSet({
          requests: sql<number>`usage_models.requests + 1`,
          input_tokens: sql<number>`usage_models.input_tokens + ${usage.inputTokens}`,
          output_tokens: sql<number>`usage_models.output_tokens + ${usage.outputTokens}`,
          cache_read_tokens: sql<number>`usage_models.cache_read_tokens + ${usage.cacheReadTokens}`,
          cache_write_tokens: sql<number>`usage_models.cache_write_tokens + ${usage.cacheWriteTokens}`,
          // An unpriced response makes the row's cost unknown (null), as it should.
          cost_nanos: sql<number | null>`usage_models.cost_nanos + excluded.cost_nanos`,
          updated_at: now,
        }),
      )
      .execute();
    // Its own statement: a transaction held across awaits would block another SQLite
    // connection of the same process (two registries on one file).
    await this.quotas.addTokens(
      ctx,
      usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
    );
  }

  /**
   * Adds one tool call to its task's row for the server: written behind (see
   * `ToolCallWriteBehind`), so the call never waits on the database unless the buffer is
   * full. This process's own reads (`task`, `summary`) write what waits first.
   */
  recordToolCall(ctx: AgentContext, record: ToolCallRecord): Promise<void> {
    // The time as a number: formatting it costs more than the rest of the record, and the
    // write does it once per row, behind the call.
    const at = ctx.clock.now();
    return (
      this.#toolCalls.add({
        userId: ctx.userId,
        taskId: record.taskId,
        server: record.server,
        day: Math.floor(at / DAY_MS),
        errors: record.ok ? 0 : 1,
        durationMs: Math.round(record.durationMs),
        at,
      }) ?? DONE
    );
  }

  /** Writes the tool calls waiting to be written (on drain and on close). */
  flush(): Promise<void> {
    return this.#toolCalls.flush();
  }

  // One multi-row upsert per batch of distinct rows (merged by key, so no row twice).
  async #writeToolCalls(rows: readonly ToolCallTally[]): Promise<void> {
    for (let start = 0; start < rows.length; start += WRITE_BATCH) {
      await this.db
        .insertInto('usage_tools')
        .values(
          rows.slice(start, start + WRITE_BATCH).map((row) => {
            const at = new Date(row.at).toISOString();
            return {
              user_id: row.userId,
              task_id: row.taskId,
              server: row.server,
              day: new Date(row.day * DAY_MS).toISOString().slice(0, 10),
              calls: row.calls,
              errors: row.errors,
              duration_ms: row.durationMs,
              created_at: at,
              updated_at: at,
            };
          }),
        )
        .onConflict((oc) =>
          oc.columns(['user_id', 'task_id', 'server']).doUpdateSet({
            calls: sql<number>`usage_tools.calls + excluded.calls`,
            errors: sql<number>`usage_tools.errors + excluded.errors`,
            duration_ms: sql<number>`usage_tools.duration_ms + excluded.duration_ms`,
            updated_at: sql<string>`excluded.updated_at`,
          }),
        )
        .execute();
    }
  }

  /** One task's figures, as recorded: each model and each server. */
  async task(ctx: AgentContext, taskId: string): Promise<TaskUsage> {
    await this.flush();
    const [models, tools] = await Promise.all([
      this.db
        .selectFrom('usage_models')
        .selectAll()
        .where('user_id', '=', ctx.userId)
        .where('task_id', '=', taskId)
        .execute(),
      this.db
        .selectFrom('usage_tools')
        .selectAll()
        .where('user_id', '=', ctx.userId)
        .where('task_id', '=', taskId)
        .execute(),
    ]);
    return {
      models: models
        .map((row) => ({
          model: row.model,
          requests: num(row.requests),
          inputTokens: num(row.input_tokens),
          outputTokens: num(row.output_tokens),
          cacheReadTokens: num(row.cache_read_tokens),
          cacheWriteTokens: num(row.cache_write_tokens),
          estimatedCostUsd: row.cost_nanos === null ? null : num(row.cost_nanos) / NANOS,
        }))
        .sort((a, b) => compareText(a.model, b.model)),
      servers: tools
        .map((row) => ({
          server: row.server,
          calls: num(row.calls),
          errors: num(row.errors),
          durationMs: num(row.duration_ms),
        }))
        .sort((a, b) => compareText(a.server, b.server)),
    };
  }

  /** The tenant's usage over the last `days` UTC days (today included; at most 366). */
  async summary(ctx: AgentContext, options: { days?: number } = {}): Promise<UsageSummary> {
    await this.flush();
    const days = Math.min(MAX_USAGE_DAYS, Math.max(1, Math.floor(options.days ?? 30)));
    const now = ctx.clock.now();
    const to = new Date(now).toISOString().slice(0, 10);
    const from = new Date(now - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const [modelRows, toolRows] = await Promise.all([
      this.db
        .selectFrom('usage_models')
        .select([
          'day',
          'model',
          (eb) => eb.fn.sum<string | number>('requests').as('requests'),
          (eb) => eb.fn.sum<string | number>('input_tokens').as('input_tokens'),
          (eb) => eb.fn.sum<string | number>('output_tokens').as('output_tokens'),
          (eb) => eb.fn.sum<string | number>('cache_read_tokens').as('cache_read_tokens'),
          (eb) => eb.fn.sum<string | number>('cache_write_tokens').as('cache_write_tokens'),
          (eb) => eb.fn.sum<string | number | null>('cost_nanos').as('cost_nanos'),
          (eb) => eb.fn.countAll<string | number>().as('rows'),
          (eb) => eb.fn.count<string | number>('cost_nanos').as('priced'),
        ])
        .where('user_id', '=', ctx.userId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .groupBy(['day', 'model'])
        .execute(),
      this.db
        .selectFrom('usage_tools')
        .select([
          'day',
          'server',
          (eb) => eb.fn.sum<string | number>('calls').as('calls'),
          (eb) => eb.fn.sum<string | number>('errors').as('errors'),
          (eb) => eb.fn.sum<string | number>('duration_ms').as('duration_ms'),
        ])
        .where('user_id', '=', ctx.userId)
        .where('day', '>=', from)
        .where('day', '<=', to)
        .groupBy(['day', 'server'])
        .execute(),
    ]);
    const byDay = new Map<string, MutableTotals>();
    const dayOf = (day: string) => {
      let totals = byDay.get(day);
      if (totals === undefined) byDay.set(day, (totals = emptyTotals()));
      return totals;
    };
    const byModel = new Map<string, ModelUsage & { priced: boolean }>();
    const unpriced = new Set<string>();
    for (const row of modelRows) {
      const totals = dayOf(row.day);
      const cost = num(row.cost_nanos) / NANOS;
      const usage = {
        requests: num(row.requests),
        inputTokens: num(row.input_tokens),
        outputTokens: num(row.output_tokens),
        cacheReadTokens: num(row.cache_read_tokens),
        cacheWriteTokens: num(row.cache_write_tokens),
      };
      totals.requests += usage.requests;
      totals.inputTokens += usage.inputTokens;
      totals.outputTokens += usage.outputTokens;
      totals.cacheReadTokens += usage.cacheReadTokens;
      totals.cacheWriteTokens += usage.cacheWriteTokens;
      totals.estimatedCostUsd += cost;
      const allPriced = num(row.priced) === num(row.rows);
      if (!allPriced) unpriced.add(row.model);
      const model = byModel.get(row.model);
      byModel.set(row.model, {
        model: row.model,
        requests: (model?.requests ?? 0) + usage.requests,
        inputTokens: (model?.inputTokens ?? 0) + usage.inputTokens,
        outputTokens: (model?.outputTokens ?? 0) + usage.outputTokens,
        cacheReadTokens: (model?.cacheReadTokens ?? 0) + usage.cacheReadTokens,
        cacheWriteTokens: (model?.cacheWriteTokens ?? 0) + usage.cacheWriteTokens,
        estimatedCostUsd: (model?.estimatedCostUsd ?? 0) + cost,
        priced: (model?.priced ?? true) && allPriced,
      });
    }
    const byServer = new Map<string, ServerUsage>();
    for (const row of toolRows) {
      const totals = dayOf(row.day);
      const calls = num(row.calls);
      const errors = num(row.errors);
      const durationMs = num(row.duration_ms);
      totals.toolCalls += calls;
      totals.toolErrors += errors;
      totals.toolDurationMs += durationMs;
      const server = byServer.get(row.server);
      byServer.set(row.server, {
        server: row.server,
        calls: (server?.calls ?? 0) + calls,
        errors: (server?.errors ?? 0) + errors,
        durationMs: (server?.durationMs ?? 0) + durationMs,
      });
    }
    const dayList = [...byDay.entries()]
      .sort(([a], [b]) => compareText(a, b))
      .map(([day, totals]) => ({ day, ...rounded(totals) }));
    const totals = emptyTotals();
    for (const day of byDay.values())
      for (const key of Object.keys(totals) as (keyof MutableTotals)[]) totals[key] += day[key];
    return {
      from,
      to,
      totals: rounded(totals),
      days: dayList,
      servers: [...byServer.values()].sort((a, b) => compareText(a.server, b.server)),
      models: [...byModel.values()]
        .sort((a, b) => compareText(a.model, b.model))
        .map(({ priced, ...model }) => ({
          ...model,
          estimatedCostUsd: priced ? roundUsd(model.estimatedCostUsd ?? 0) : null,
        })),
      unpricedModels: [...unpriced].sort(compareText),
    };
  }

  /**
   * Deletes every tenant's usage rows of days before `beforeDay` (YYYY-MM-DD): the retention an
   * operator chooses. The one deliberately cross-tenant method here.
   */
  async prune(beforeDay: string): Promise<number> {
    await this.flush();
    const [models, tools] = await Promise.all([
      this.db.deleteFrom('usage_models').where('day', '<', beforeDay).executeTakeFirst(),
      this.db.deleteFrom('usage_tools').where('day', '<', beforeDay).executeTakeFirst(),
    ]);
    return Number(models.numDeletedRows) + Number(tools.numDeletedRows);
  }
}

type MutableTotals = { -readonly [K in keyof UsageTotals]: number };

function emptyTotals(): MutableTotals {
  return {
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    toolCalls: 0,
    toolErrors: 0,
    toolDurationMs: 0,
    estimatedCostUsd: 0,
  };
}

function rounded(totals: MutableTotals): UsageTotals {
  return { ...totals, estimatedCostUsd: roundUsd(totals.estimatedCostUsd) };
}

// Estimates: to a millionth of a dollar, which hides float noise and keeps small tasks visible.
function roundUsd(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000;
}

function num(value: number | string | null | undefined): number {
  return count(value) ?? 0;
}

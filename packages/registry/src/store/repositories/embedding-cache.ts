import { InvalidArgumentsError, type AgentContext } from '@mcp-agent/core';
import type { Executor } from '../database/executor.js';
import { timestamp } from '../database/timestamp.js';

/** One vector to store: the hash of the text it embeds, and the vector. */
export interface EmbeddingEntry {
  /** SHA-256 of the embedded text, lowercase hex (64 characters); anything else is refused. */
  readonly contentHash: string;
  /** The embedding: non-empty, finite values only. */
  readonly vector: Float32Array;
}

// Both dialects cap the parameters of one statement; 500 keys stay far below either cap.
const CHUNK = 500;

/**
 * Embedding vectors of texts, by model and content hash, shared by every tenant and process so
 * that no text is embedded twice: after a restart, or by another server of the same database.
 * Not scoped by tenant on purpose: a row is addressed by what was embedded, so it tells a
 * tenant nothing it could not compute from the same text. `ctx` only dates the rows.
 */
export class EmbeddingCacheRepository {
  constructor(private readonly db: Executor) {}

  /** The cached vectors of `contentHashes` for `model`; missing hashes are absent from the map. */
  async get(
    ctx: AgentContext,
    model: string,
    contentHashes: readonly string[],
  ): Promise<Map<string, Float32Array>> {
    const found = new Map<string, Float32Array>();
    const unique = [...new Set(contentHashes)];
    for (let at = 0; at < unique.length; at += CHUNK) {
      const chunk = unique.slice(at, at + CHUNK);
      const rows = await this.db
        .selectFrom('embedding_cache')
        .select(['content_hash', 'dimensions', 'vector'])
        .where('model', '=', model)
        .where('content_hash', 'in', chunk)
        .execute();
      for (const row of rows) {
        const vector = decodeVector(row.vector);
        // A row that does not decode to its recorded size is treated as missing and re-embedded.
        if (vector.length === Number(row.dimensions)) found.set(row.content_hash, vector);
      }
      if (rows.length > 0) {
        await this.db
          .updateTable('embedding_cache')
          .set({ used_at: timestamp(ctx) })
          .where('model', '=', model)
          .where(
            'content_hash',
            'in',
            rows.map((row) => row.content_hash),
          )
          .execute();
      }
    }
    return found;
  }

  /**
   * Stores vectors; a hash already stored for the model keeps its first vector.
   *
   * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) when a hash is not SHA-256 hex or a
   *   vector is empty or not finite; then nothing is stored.
   */
  async put(ctx: AgentContext, model: string, entries: readonly EmbeddingEntry[]): Promise<void> {
    const now = timestamp(ctx);
    for (const entry of entries) checkEntry(entry);
    const rows = [...new Map(entries.map((e) => [e.contentHash, e])).values()].map((entry) => ({
      model,
      content_hash: entry.contentHash,
      dimensions: entry.vector.length,
      vector: encodeVector(entry.vector),
      created_at: now,
      used_at: now,
    }));
    // Six parameters a row: 100 rows stay under SQLite's and PostgreSQL's caps.
    for (let at = 0; at < rows.length; at += 100) {
      await this.db
        .insertInto('embedding_cache')
        .values(rows.slice(at, at + 100))
        .onConflict((oc) => oc.columns(['model', 'content_hash']).doNothing())
        .execute();
    }
  }

  /** How many vectors are stored, for `model` or in all. */
  async count(model?: string): Promise<number> {
    let query = this.db.selectFrom('embedding_cache').select((eb) => eb.fn.countAll().as('n'));
    if (model !== undefined) query = query.where('model', '=', model);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Keeps at most `maxRows` vectors, dropping the least recently used first (rows used at the
   * same instant as the last one kept may go too); returns how many were dropped.
   */
  async prune(maxRows: number): Promise<number> {
    const boundary = await this.db
      .selectFrom('embedding_cache')
      .select('used_at')
      .orderBy('used_at', 'desc')
      .limit(1)
      .offset(Math.max(0, Math.floor(maxRows)))
      .executeTakeFirst();
    if (boundary === undefined) return 0;
    const result = await this.db
      .deleteFrom('embedding_cache')
      .where('used_at', '<=', boundary.used_at)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function checkEntry(entry: EmbeddingEntry): void {
  if (!/^[0-9a-f]{64}$/.test(entry.contentHash)) {
    throw new InvalidArgumentsError(
      'An embedding cache key must be a SHA-256 hex digest of the embedded text.',
    );
  }
  if (entry.vector.length === 0 || !entry.vector.every(Number.isFinite)) {
    throw new InvalidArgumentsError(
      'An embedding vector must be non-empty and hold finite numbers only; it was not stored.',
    );
  }
}

/** A vector as stored: its float32 values, little-endian, in base64. */
export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

/** The vector of {@link encodeVector}'s text. */
export function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  const vector = new Float32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}

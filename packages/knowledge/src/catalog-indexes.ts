import { createHash } from 'node:crypto';
import { compareText } from '@mcp-agent/core';
import type { SearchDocument } from './search/search-document.js';
import type { SearchIndex } from './search/search-index.js';
import { ServerRanking, type ServerAbout } from './search/server-ranking.js';
import type { ToolVectors } from './semantic/tool-vectors.js';

/** One server of a catalog: its id, the hash of its tool list and what it says of itself. */
export interface CatalogServer {
  readonly id: string;
  /**
   * The same for two servers exactly when they hold the same tools, definitions included, and
   * say the same of themselves (`about`): a tenant's own description never ranks in an index
   * another tenant shares.
   */
  readonly key: string;
  /** Its name and description, for the server ranking. */
  readonly about?: ServerAbout;
}

/** One search index over one catalog, shared by every tenant whose catalog it is. */
export interface CatalogIndex {
  /** Identifies the catalog: its servers and their keys. */
  readonly signature: string;
  readonly index: SearchIndex;
  /** The catalog's servers ranked for a request as a whole (each its text and its tools'). */
  readonly serverRanking: ServerRanking;
  /** The tools' vectors, when semantic ranking is on. */
  readonly vectors: ToolVectors | undefined;
}

/** Options of {@link CatalogIndexes}. */
export interface CatalogIndexesOptions {
  readonly createIndex: () => SearchIndex;
  readonly createVectors?: () => ToolVectors;
  /** Makes each catalog's server ranking; default one with the default ranking's query terms. */
  readonly createServerRanking?: () => ServerRanking;
  /** Catalogs whose index is kept, least recently used dropped first. */
  readonly maxIndexes: number;
  /** Milliseconds since the epoch, for {@link CatalogIndexes.evictUnusedSince}. */
  readonly now: () => number;
}

interface Entry extends CatalogIndex {
  signature: string;
  /** Server id → key and documents, as indexed. */
  readonly servers: Map<string, { key: string; documents: readonly SearchDocument[] }>;
  /** The one tenant that has ever taken it; `undefined` once a second one has. */
  owner: string | undefined;
  /** When a request last used it. */
  usedAt: number;
}

/**
 * The search indexes of the catalogs in use, one per catalog (the same servers with the same
 * tool lists), whichever tenants use it: a thousand tenants of the same app servers share one
 * index, and each request filters it by what its tenant may use. A tenant whose catalog changes
 * gets the index of its new catalog: one already held, or the old one changed in place (per
 * server, as before) when no other tenant has ever taken it, or a new one, built with the
 * old one's documents, leaving the old one unchanged for whoever else uses it.
 */
export class CatalogIndexes {
  readonly #options: CatalogIndexesOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(options: CatalogIndexesOptions) {
    this.#options = options;
  }

  /** Indexes held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The index of a catalog, when held; marks it recently used. */
  get(signature: string): CatalogIndex | undefined {
    const entry = this.#entries.get(signature);
    if (entry !== undefined) {
      entry.usedAt = this.#options.now();
      this.#entries.delete(signature);
      this.#entries.set(signature, entry);
    }
    return entry;
  }

  /**
   * Drops every index no request has used since `cutoff` (milliseconds since the epoch) and
   * returns how many; a later request of its catalog builds it again.
   */
  evictUnusedSince(cutoff: number): number {
    let evicted = 0;
    // Least recently used first: the first one used since the cutoff ends the walk.
    for (const entry of this.#entries.values()) {
      if (entry.usedAt >= cutoff) break;
      this.#drop(entry);
      evicted += 1;
    }
    return evicted;
  }

  #drop(entry: Entry): void {
    entry.vectors?.close();
    this.#entries.delete(entry.signature);
  }

  /**
   * The index of the catalog made of `servers` for `userId`, who used `previous` until now
   * (if it did): an index held for that catalog, or `previous` changed in place when no other
   * tenant took it, or a new one. `documents` gives a server's tools when they must be
   * indexed. Synchronous, so no other request sees an index half changed.
   */
  acquire(
    userId: string,
    servers: readonly CatalogServer[],
    documents: (serverId: string) => readonly SearchDocument[],
    previous?: string,
  ): CatalogIndex {
    const signature = signatureOf(servers);
    const held = this.#entries.get(signature);
    if (held !== undefined) {
      this.get(signature);
      // Another tenant's requests may be using it, now or later: never changed in place again.
      if (held.owner !== userId) held.owner = undefined;
      return held;
    }
    const old = previous === undefined ? undefined : this.#entries.get(previous);
    const wanted = new Map(servers.map((p) => [p.id, p.key]));
    const about = new Map(servers.map((p) => [p.id, p.about ?? {}]));
    if (old !== undefined && old.owner === userId) {
      // Only this tenant used it: change what changed, as the index did before it was shared.
      for (const id of [...old.servers.keys()]) {
        if (wanted.get(id) === old.servers.get(id)?.key) continue;
        old.index.removeServer(id);
        old.serverRanking.removeServer(id);
        old.servers.delete(id);
      }
      for (const [id, key] of wanted) {
        if (old.servers.has(id)) continue;
        const docs = documents(id);
        old.index.setServer(id, docs);
        old.serverRanking.setServer(id, about.get(id)!, docs);
        old.servers.set(id, { key, documents: docs });
      }
      this.#entries.delete(old.signature);
      old.signature = signature;
      old.usedAt = this.#options.now();
      this.#entries.set(signature, old);
      return old;
    }
    const entry: Entry = {
      signature,
      index: this.#options.createIndex(),
      serverRanking: this.#options.createServerRanking?.() ?? new ServerRanking(),
      vectors: this.#options.createVectors?.(),
      servers: new Map(),
      owner: userId,
      usedAt: this.#options.now(),
    };
    for (const [id, key] of wanted) {
      // A server the old index had with the same tools lends its documents.
      const known = old?.servers.get(id);
      const docs = known?.key === key ? known.documents : documents(id);
      entry.index.setServer(id, docs);
      entry.serverRanking.setServer(id, about.get(id)!, docs);
      entry.servers.set(id, { key, documents: docs });
    }
    this.#entries.set(signature, entry);
    while (this.#entries.size > Math.max(1, this.#options.maxIndexes))
      this.#drop(this.#entries.values().next().value!);
    return entry;
  }
}

/**
 * The key of a server's tool list (its tools' names and content hashes, in name order) and of
 * what it says of itself (`about`), which the server ranking reads.
 */
export function serverKey(
  tools: readonly { name: string; contentHash: string }[],
  about: ServerAbout = {},
): string {
  const hash = createHash('sha256');
  hash.update(`${about.name ?? ''}\u0000${about.description ?? ''}\u0000`);
  for (const tool of [...tools].sort((a, b) => compareText(a.name, b.name)))
    hash.update(`${tool.name}\u0000${tool.contentHash}\n`);
  return hash.digest('hex');
}

function signatureOf(servers: readonly CatalogServer[]): string {
  const hash = createHash('sha256');
  for (const { id, key } of [...servers].sort((a, b) => compareText(a.id, b.id)))
    hash.update(`${id}\u0000${key}\n`);
  return hash.digest('hex');
}

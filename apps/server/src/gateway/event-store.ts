import { randomFillSync } from 'node:crypto';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '@mcp-agent/core';

/** Bounds of the gateway's resume store, in bytes of stored JSON (UTF-8). */
export interface EventStoreLimits {
  /** One stream (one request's SSE response, or the GET stream); its oldest events go first. */
  readonly maxBytesPerStream: number;
  /** One session, all its streams together. */
  readonly maxBytesPerSession: number;
  /** The whole gateway; past it, the session holding the most gives up its oldest events. */
  readonly maxBytesTotal: number;
}

/** 1 MiB per stream, 4 MiB per session, 128 MiB in total. */
export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = Object.freeze({
  maxBytesPerStream: 1024 * 1024,
  maxBytesPerSession: 4 * 1024 * 1024,
  maxBytesTotal: 128 * 1024 * 1024,
});

interface StoredEvent {
  readonly streamId: string;
  readonly json: string;
  readonly bytes: number;
}

/**
 * The gateway's resume store: what a client that lost its SSE stream gets back with
 * `Last-Event-ID`. Each session has its own `SessionEventStore` (`forSession`), so a
 * session only ever replays its own events; event ids are random (128 bits) and carry no
 * counter. Bounded per stream, per session and in total (see {@link EventStoreLimits}); a
 * session's events are dropped when it closes or expires. A resume from an event that was
 * dropped gets the SDK's 400, never a silent gap.
 */
export class MemoryEventStore {
  /** The bounds in force, defaults filled in. */
  readonly limits: EventStoreLimits;
  readonly #sessions = new Set<SessionEventStore>();
  #bytes = 0;
  #events = 0;

  constructor(limits: Partial<EventStoreLimits> = {}) {
    this.limits = resolveEventStoreLimits(limits);
  }

  /** A store for one new session; call its `dispose()` when the session ends. */
  forSession(): SessionEventStore {
    const store = new SessionEventStore(this, (bytes, events) => {
      this.#bytes += bytes;
      this.#events += events;
    });
    this.#sessions.add(store);
    return store;
  }

  /** What the store holds now: sessions with a store, events and their bytes. */
  stats(): {
    /** Sessions with a store. */
    sessions: number;
    /** Events kept, over every session. */
    events: number;
    /** Their size in bytes. */
    bytes: number;
  } {
    return { sessions: this.#sessions.size, events: this.#events, bytes: this.#bytes };
  }

  /** @internal Called by a session store after it added an event. */
  enforceTotal(): void {
    while (this.#bytes > this.limits.maxBytesTotal) {
      let largest: SessionEventStore | undefined;
      for (const session of this.#sessions)
        if (largest === undefined || session.bytes > largest.bytes) largest = session;
      if (largest === undefined || !largest.evictOldest()) return;
    }
  }

  /** @internal Called by a session store when it is disposed. */
  forget(store: SessionEventStore): void {
    this.#sessions.delete(store);
  }
}

/** One session's events, behind the SDK's `EventStore` interface. */
export class SessionEventStore implements EventStore {
  // Insertion order is age: the first key of each map is the oldest event.
  readonly #events = new Map<string, StoredEvent>();
  readonly #streams = new Map<string, { bytes: number; ids: Set<string> }>();
  #bytes = 0;
  #disposed = false;

  constructor(
    private readonly owner: MemoryEventStore,
    private readonly account: (bytes: number, events: number) => void,
  ) {}

  /** Bytes this session holds. */
  get bytes(): number {
    return this.#bytes;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    return this.append(streamId, JSON.stringify(message));
  }

  /**
   * Stores one event of `streamId` already serialised (the gateway's own streams write the same
   * string they store) and returns its new id, at once.
   */
  append(streamId: string, json: string): string {
    const eventId = newEventId();
    const bytes = Buffer.byteLength(json);
    const { limits } = this.owner;
    // An event larger than a whole stream's bound is sent live but cannot be replayed.
    if (this.#disposed || bytes > limits.maxBytesPerStream) return eventId;
    let stream = this.#streams.get(streamId);
    if (stream === undefined) {
      stream = { bytes: 0, ids: new Set() };
      this.#streams.set(streamId, stream);
    }
    this.#events.set(eventId, { streamId, json, bytes });
    stream.ids.add(eventId);
    stream.bytes += bytes;
    this.#bytes += bytes;
    this.account(bytes, 1);
    while (stream.bytes > limits.maxBytesPerStream) this.#evict(stream.ids.values().next().value);
    while (this.#bytes > limits.maxBytesPerSession) this.evictOldest();
    this.owner.enforceTotal();
    return eventId;
  }

  /** The stream an event belongs to, while the event is kept. */
  streamOf(eventId: string): string | undefined {
    return this.#events.get(eventId)?.streamId;
  }

  /** The events of its stream kept after `eventId`, oldest first, as [id, JSON] pairs. */
  eventsAfter(eventId: string): [id: string, json: string][] {
    const streamId = this.#events.get(eventId)?.streamId;
    if (streamId === undefined) return [];
    const ids = [...(this.#streams.get(streamId)?.ids ?? [])];
    const after: [string, string][] = [];
    for (const id of ids.slice(ids.indexOf(eventId) + 1)) {
      const event = this.#events.get(id);
      if (event !== undefined) after.push([id, event.json]);
    }
    return after;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.streamOf(eventId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = this.streamOf(lastEventId);
    if (streamId === undefined) return '';
    for (const [eventId, json] of this.eventsAfter(lastEventId))
      await send(eventId, JSON.parse(json) as JSONRPCMessage);
    return streamId;
  }

  /** @internal Drops this session's oldest event; false when it holds none. */
  evictOldest(): boolean {
    const oldest = this.#events.keys().next();
    if (oldest.done === true) return false;
    this.#evict(oldest.value);
    return true;
  }

  /** Drops every event of the session and stops storing more. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.account(-this.#bytes, -this.#events.size);
    this.#events.clear();
    this.#streams.clear();
    this.#bytes = 0;
    this.owner.forget(this);
  }

  #evict(eventId: string | undefined): void {
    const event = eventId === undefined ? undefined : this.#events.get(eventId);
    if (eventId === undefined || event === undefined) return;
    this.#events.delete(eventId);
    const stream = this.#streams.get(event.streamId);
    if (stream !== undefined) {
      stream.ids.delete(eventId);
      stream.bytes -= event.bytes;
      if (stream.ids.size === 0) this.#streams.delete(event.streamId);
    }
    this.#bytes -= event.bytes;
    this.account(-event.bytes, -1);
  }
}

// Event ids: 128 random bits each, cut from a block of random bytes filled 256 ids at a time
// (one call into the system's generator instead of one per event).
const ID_BYTES = 16;
const idBlock = Buffer.alloc(ID_BYTES * 256);
let idOffset = idBlock.length;

function newEventId(): string {
  if (idOffset === idBlock.length) {
    randomFillSync(idBlock);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return idBlock.toString('base64url', idOffset - ID_BYTES, idOffset);
}

function resolveEventStoreLimits(limits: Partial<EventStoreLimits>): EventStoreLimits {
  const resolved = { ...DEFAULT_EVENT_STORE_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved))
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError(
        `Invalid event store limit ${name}: ${value}; a positive whole number.`,
      );
  if (
    resolved.maxBytesPerStream > resolved.maxBytesPerSession ||
    resolved.maxBytesPerSession > resolved.maxBytesTotal
  )
    throw new ConfigError(
      'Event store limits must nest: maxBytesPerStream ≤ maxBytesPerSession ≤ maxBytesTotal.',
    );
  return Object.freeze(resolved);
}

import { randomFillSync } from 'node:crypto';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError, systemClock, type Clock } from '@mcp-agent/core';

/**
 * Bounds of the gateway's resume store. Bytes are what an event holds: its JSON (UTF-8) and
 * `EVENT_OVERHEAD_BYTES` for its id and bookkeeping, plus `STREAM_OVERHEAD_BYTES`
 * per stream, so that many small events are bounded as surely as a few large ones.
 */
export interface EventStoreLimits {
  /** One stream (one request's SSE response, or the GET stream); its oldest events go first. */
  readonly maxBytesPerStream: number;
  /** One session, all its streams together. */
  readonly maxBytesPerSession: number;
  /** The whole gateway; past it, the session holding the most gives up its oldest events. */
  readonly maxBytesTotal: number;
  /**
   * How long a stream's events are kept after its newest one: an answered call's stream is
   * dropped this long after its answer. A stream still waiting for its answer on the gateway's
   * own path is kept however long the call runs (its bytes are bounded all the same).
   */
  readonly maxAgeMs: number;
}

/** 1 MiB per stream, 4 MiB per session, 128 MiB in total, 5 minutes after a stream's last event. */
export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = Object.freeze({
  maxBytesPerStream: 1024 * 1024,
  maxBytesPerSession: 4 * 1024 * 1024,
  maxBytesTotal: 128 * 1024 * 1024,
  maxAgeMs: 5 * 60_000,
});

/**
 * Heap an event holds besides its JSON's bytes, counted with it: its string's header, its id
 * (22 characters), its record and its entry in the session's map. Measured on Node 24 (settled
 * heap over 20,000 calls' streams): about 160 bytes; `gateway-streams.test.ts` (GW-09) holds
 * the count within 2x of the heap the store holds on the real gateway.
 */
export const EVENT_OVERHEAD_BYTES = 180;

/** Heap a stream holds besides its events (its record, id and map entry): about 150 bytes. */
export const STREAM_OVERHEAD_BYTES = 180;

/** The JSON-RPC code of the answer kept in place of one too large to keep (an internal error). */
export const TOO_LARGE_TO_KEEP_CODE = -32603;

interface StoredStream {
  readonly id: string;
  bytes: number;
  /** Its oldest and newest events kept: events are linked oldest to newest. */
  first: StoredEvent | undefined;
  last: StoredEvent | undefined;
  /** When its newest event was stored. */
  lastAt: number;
  /** Waiting for its answer on the gateway's own path: kept whatever its age. */
  awaiting: boolean;
}

interface StoredEvent {
  readonly id: string;
  readonly stream: StoredStream;
  readonly json: string;
  readonly bytes: number;
  next: StoredEvent | undefined;
}

/**
 * The gateway's resume store: what a client that lost its SSE stream gets back with
 * `Last-Event-ID`. Each session has its own `SessionEventStore` (`forSession`), so a
 * session only ever replays its own events; event ids are random (128 bits) and carry no
 * counter. Bounded per stream, per session and in total, in bytes held (see
 * {@link EventStoreLimits}), and in age (`expire`); a session's events are dropped when it
 * closes or expires. A resume from an event that was dropped gets the SDK's 400, never a
 * silent gap; an answer too large to keep is kept as an error saying so
 * (`SessionEventStore.appendAnswer`).
 */
export class MemoryEventStore {
  /** The bounds in force, defaults filled in. */
  readonly limits: EventStoreLimits;
  /** @internal The clock events are stamped with. */
  readonly clock: Clock;
  readonly #sessions = new Set<SessionEventStore>();
  #bytes = 0;
  #events = 0;

  constructor(limits: Partial<EventStoreLimits> = {}, clock: Clock = systemClock) {
    this.limits = resolveEventStoreLimits(limits);
    this.clock = clock;
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
    /** The bytes they are counted as (JSON and overheads; see {@link EventStoreLimits}). */
    bytes: number;
  } {
    return { sessions: this.#sessions.size, events: this.#events, bytes: this.#bytes };
  }

  /**
   * Drops, in every session, the streams whose newest event is older than `maxAgeMs` (but not
   * those still waiting for their answer); returns how many events went. The gateway calls it
   * from its idle sweep.
   */
  expire(): number {
    const before = this.#events;
    const cutoff = this.clock.now() - this.limits.maxAgeMs;
    for (const session of this.#sessions) session.expireBefore(cutoff);
    return before - this.#events;
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
  // Insertion order is age: the first key is the oldest event (the oldest of its stream, too).
  readonly #events = new Map<string, StoredEvent>();
  // Insertion order is activity: a stream moves to the end with each event stored.
  readonly #streams = new Map<string, StoredStream>();
  #bytes = 0;
  #disposed = false;

  constructor(
    private readonly owner: MemoryEventStore,
    private readonly account: (bytes: number, events: number) => void,
  ) {}

  /** Bytes this session holds, as counted (see {@link EventStoreLimits}). */
  get bytes(): number {
    return this.#bytes;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const json = JSON.stringify(message);
    // A response (the SDK's path): what ends its stream.
    return 'method' in message || !('id' in message) || message.id === undefined
      ? this.append(streamId, json)
      : this.appendAnswer(streamId, json, message.id);
  }

  /**
   * Stores one event of `streamId` already serialised (the gateway's own streams write the same
   * string they store) and returns its new id, at once. `awaiting`: the stream waits for its
   * answer, and is kept whatever its age until {@link appendAnswer} or {@link dropStream}.
   */
  append(streamId: string, json: string, awaiting = false): string {
    const eventId = newEventId();
    const bytes = Buffer.byteLength(json) + EVENT_OVERHEAD_BYTES;
    // An event larger than a whole stream's bound is sent live but cannot be replayed.
    if (this.#disposed || bytes + STREAM_OVERHEAD_BYTES > this.owner.limits.maxBytesPerStream)
      return eventId;
    this.#store(streamId, eventId, json, bytes, awaiting);
    return eventId;
  }

  /**
   * Stores the response that ends `streamId`, answering request `id`, and returns its event's
   * id. An answer too large to keep is sent live, and kept as a JSON-RPC error that says so: a
   * client that lost the stream gets that error on resuming it, never a stream without an answer.
   */
  appendAnswer(streamId: string, json: string, id: RequestId): string {
    const eventId = newEventId();
    if (this.#disposed) return eventId;
    const { maxBytesPerStream } = this.owner.limits;
    let kept = json;
    let bytes = Buffer.byteLength(json) + EVENT_OVERHEAD_BYTES;
    if (bytes + STREAM_OVERHEAD_BYTES > maxBytesPerStream) {
      kept = JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: {
          code: TOO_LARGE_TO_KEEP_CODE,
          message: `The result (${bytes - EVENT_OVERHEAD_BYTES} bytes of JSON) was sent on the stream that was lost and was too large to keep for a resume (the gateway keeps ${maxBytesPerStream} bytes per stream: maxBytesPerStream, --event-store-stream-bytes). Call the tool again.`,
          data: { reason: 'result_too_large_to_keep', maxBytesPerStream },
        },
      });
      bytes = Buffer.byteLength(kept) + EVENT_OVERHEAD_BYTES;
    }
    this.#store(streamId, eventId, kept, bytes, false);
    return eventId;
  }

  /** Drops every event of `streamId` (a cancelled request's stream: nothing is left to resume). */
  dropStream(streamId: string): void {
    const stream = this.#streams.get(streamId);
    while (stream?.first !== undefined) this.#evict(stream.first);
  }

  /** The stream an event belongs to, while the event is kept. */
  streamOf(eventId: string): string | undefined {
    return this.#events.get(eventId)?.stream.id;
  }

  /** The events of its stream kept after `eventId`, oldest first, as [id, JSON] pairs. */
  eventsAfter(eventId: string): [id: string, json: string][] {
    const after: [string, string][] = [];
    for (let event = this.#events.get(eventId)?.next; event !== undefined; event = event.next)
      after.push([event.id, event.json]);
    return after;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.streamOf(eventId);
  }

  /** Sends the events of `lastEventId`'s stream that followed it; resolves to that stream's id (`''` for an unknown id). */
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
    const oldest = this.#events.values().next();
    if (oldest.done === true) return false;
    this.#evict(oldest.value);
    return true;
  }

  /** @internal Drops the streams whose newest event is older than `cutoff`, unless awaiting. */
  expireBefore(cutoff: number): void {
    const expired: StoredStream[] = [];
    for (const stream of this.#streams.values()) {
      if (stream.lastAt >= cutoff) break;
      if (!stream.awaiting) expired.push(stream);
    }
    for (const stream of expired) this.dropStream(stream.id);
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

  #store(streamId: string, eventId: string, json: string, bytes: number, awaiting: boolean): void {
    const { limits, clock } = this.owner;
    let stream = this.#streams.get(streamId);
    let added = bytes;
    if (stream === undefined) {
      stream = {
        id: streamId,
        bytes: STREAM_OVERHEAD_BYTES,
        first: undefined,
        last: undefined,
        lastAt: 0,
        awaiting,
      };
      added += STREAM_OVERHEAD_BYTES;
    } else this.#streams.delete(streamId);
    // Re-inserted: the streams' order is the order of their newest events.
    this.#streams.set(streamId, stream);
    stream.lastAt = clock.now();
    stream.awaiting = awaiting;
    const event: StoredEvent = { id: eventId, stream, json, bytes, next: undefined };
    this.#events.set(eventId, event);
    if (stream.last === undefined) stream.first = event;
    else stream.last.next = event;
    stream.last = event;
    stream.bytes += bytes;
    this.#bytes += added;
    this.account(added, 1);
    while (stream.bytes > limits.maxBytesPerStream && stream.first !== undefined)
      this.#evict(stream.first);
    while (this.#bytes > limits.maxBytesPerSession) this.evictOldest();
    this.owner.enforceTotal();
  }

  // Events go oldest first within their stream, whichever bound drops them.
  // (the session's oldest event is the first of its stream: both are in the order stored).
  #evict(event: StoredEvent): void {
    const { stream } = event;
    this.#events.delete(event.id);
    stream.first = event.next;
    stream.bytes -= event.bytes;
    let freed = event.bytes;
    if (stream.first === undefined) {
      stream.last = undefined;
      this.#streams.delete(stream.id);
      freed += STREAM_OVERHEAD_BYTES;
    }
    this.#bytes -= freed;
    this.account(-freed, -1);
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

import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createManualClock } from '@mcp-agent/core/testing';
import {
  EVENT_OVERHEAD_BYTES,
  MemoryEventStore,
  STREAM_OVERHEAD_BYTES,
  TOO_LARGE_TO_KEEP_CODE,
  type SessionEventStore,
} from './event-store.js';

// A notification of about `bytes` bytes of JSON.
const message = (bytes: number, tag = ''): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { data: tag.padEnd(bytes - 70, '.') },
});

async function replay(store: SessionEventStore, after: string): Promise<string[]> {
  const sent: string[] = [];
  await store.replayEventsAfter(after, {
    send: async (_id, event) => {
      sent.push(
        String((event as unknown as { params: { data: string } }).params.data).replace(/\.+$/, ''),
      );
    },
  });
  return sent;
}

describe('MemoryEventStore', () => {
  it('keeps each stream within its bytes, oldest events first, and replays what follows an id', async () => {
    const store = new MemoryEventStore({
      maxBytesPerStream: 2_000,
      maxBytesPerSession: 4_000,
      maxBytesTotal: 8_000,
    });
    const session = store.forSession();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await session.storeEvent('s1', message(200, `e${i}`)));
    // Each counted with its overhead: four events of about 200 bytes and their stream fill 2,000.
    const json = Buffer.byteLength(JSON.stringify(message(200, 'e9')));
    expect(store.stats()).toEqual({
      sessions: 1,
      events: 4,
      bytes: STREAM_OVERHEAD_BYTES + 4 * (json + EVENT_OVERHEAD_BYTES),
    });
    expect(await session.getStreamIdForEventId(ids[0] as string)).toBeUndefined();
    expect(await session.getStreamIdForEventId(ids[9] as string)).toBe('s1');
    expect(await replay(session, ids[6] as string)).toEqual(['e7', 'e8', 'e9']);
  });

  it('an event larger than a stream may hold is sent live but not kept', async () => {
    const store = new MemoryEventStore({
      maxBytesPerStream: 1_000,
      maxBytesPerSession: 2_000,
      maxBytesTotal: 4_000,
    });
    const session = store.forSession();
    const id = await session.storeEvent('s1', message(5_000));
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await session.getStreamIdForEventId(id)).toBeUndefined();
    expect(store.stats()).toEqual({ sessions: 1, events: 0, bytes: 0 });
  });

  it('past the total, the session holding the most gives up its oldest events; disposal frees all', async () => {
    const store = new MemoryEventStore({
      maxBytesPerStream: 2_000,
      maxBytesPerSession: 4_000,
      maxBytesTotal: 6_000,
    });
    const quiet = store.forSession();
    const kept = await quiet.storeEvent('q', message(300, 'quiet'));
    await quiet.storeEvent('q', message(300, 'quiet again'));
    const busy = [store.forSession(), store.forSession()];
    for (let i = 0; i < 20; i++)
      for (const [n, session] of busy.entries())
        await session.storeEvent(`b${n}-${i % 3}`, message(300));
    expect(store.stats().bytes).toBeLessThanOrEqual(6_000);
    expect(quiet.bytes).toBeGreaterThanOrEqual(600);
    expect(await replay(quiet, kept)).toEqual(['quiet again']);
    for (const session of [quiet, ...busy]) session.dispose();
    expect(store.stats()).toEqual({ sessions: 0, events: 0, bytes: 0 });
  });

  it('keeps the string it is given, and gives each event its own random id, block after block', () => {
    const session = new MemoryEventStore().forSession();
    const ids = Array.from({ length: 600 }, (_, i) => session.append('s', `{"n":${i}}`));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(600);
    expect(session.streamOf(ids[0] as string)).toBe('s');
    expect(session.eventsAfter(ids[597] as string)).toEqual([
      [ids[598], '{"n":598}'],
      [ids[599], '{"n":599}'],
    ]);
  });

  it('GW-09 drops a stream maxAgeMs after its last event, but not one still waiting for its answer; a dropped stream frees all it counted', () => {
    const clock = createManualClock();
    const store = new MemoryEventStore({ maxAgeMs: 1_000 }, clock);
    const session = store.forSession();
    const answered = session.append('answered', '{}', true);
    session.appendAnswer('answered', '{"jsonrpc":"2.0","id":1,"result":{}}', 1);
    const running = session.append('running', '{}', true);
    clock.advance(600);
    const notice = session.append('_GET_stream', '{"jsonrpc":"2.0","method":"n"}');
    clock.advance(400);
    expect(store.expire()).toBe(0);
    clock.advance(1);
    // The answered stream is past its age; the running call's is kept, the newer notice too.
    expect(store.expire()).toBe(2);
    expect(session.streamOf(answered)).toBeUndefined();
    expect(session.streamOf(running)).toBe('running');
    expect(session.streamOf(notice)).toBe('_GET_stream');
    clock.advance(600);
    expect(store.expire()).toBe(1);
    expect(session.streamOf(running)).toBe('running');
    // Cancelled: its stream goes at once.
    session.dropStream('running');
    expect(store.stats()).toEqual({ sessions: 1, events: 0, bytes: 0 });
  });

  it('GW-10 keeps an answer too large to keep as a JSON-RPC error that says so, on either path', async () => {
    const store = new MemoryEventStore({
      maxBytesPerStream: 2_000,
      maxBytesPerSession: 4_000,
      maxBytesTotal: 8_000,
    });
    const session = store.forSession();
    const priming = session.append('lane', '{}', true);
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 'call-1',
      result: { text: 'x'.repeat(5_000) },
    });
    session.appendAnswer('lane', big, 'call-1');
    const [[, kept] = []] = session.eventsAfter(priming);
    expect(JSON.parse(kept as string)).toMatchObject({
      jsonrpc: '2.0',
      id: 'call-1',
      error: {
        code: TOO_LARGE_TO_KEEP_CODE,
        message: expect.stringMatching(/^The result \(5\d{3} bytes of JSON\).*too large to keep/),
        data: { reason: 'result_too_large_to_keep', maxBytesPerStream: 2_000 },
      },
    });
    // The SDK's path stores a response the same way; a notification that large is not kept.
    const sdkPriming = await session.storeEvent('sdk', {} as JSONRPCMessage);
    await session.storeEvent('sdk', JSON.parse(big) as JSONRPCMessage);
    expect(session.eventsAfter(sdkPriming)[0]?.[1]).toContain('"result_too_large_to_keep"');
    const notice = await session.storeEvent('sdk', message(5_000));
    expect(session.streamOf(notice)).toBeUndefined();
  });

  it('refuses limits that do not nest', () => {
    expect(() => new MemoryEventStore({ maxBytesPerStream: 10, maxBytesPerSession: 5 })).toThrow(
      /must nest/,
    );
  });
});

// How the gateway writes the server-sent events of its own answer streams: byte for byte what the
// SDK's streamable-HTTP transport writes, so a client cannot tell which of the two answered.

/** The protocol version from which a stream starts with a priming event (older clients choke on its empty data). */
export const PRIMING_FROM_VERSION = '2025-11-25';

/** How often an open stream gets a comment line, so proxies do not cut it as idle (the SDK's 15 s). */
export const KEEP_ALIVE_MS = 15_000;

/** The comment line a stream is kept alive with. */
export const KEEP_ALIVE = ': keepalive\n\n';

/** The headers of an answer stream. */
export function sseHeaders(sessionId: string): Record<string, string> {
  return {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'mcp-session-id': sessionId,
  };
}

/** The first event of a stream: an id to resume from, and how long to wait before resuming. */
export function primingEvent(eventId: string, retryMs: number): string {
  return `id: ${eventId}\nretry: ${retryMs}\ndata: \n\n`;
}

/** One JSON-RPC message as an event, `json` being the message already serialised. */
export function messageEvent(eventId: string, json: string): string {
  return `event: message\nid: ${eventId}\ndata: ${json}\n\n`;
}

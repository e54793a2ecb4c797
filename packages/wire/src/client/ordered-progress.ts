import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Makes a connected SDK client deliver every progress notification that arrived before a response
 * to its `onprogress` callback before that response settles the request.
 *
 * The SDK runs notification handlers one microtask late but settles responses at once, and it
 * drops the request's progress handler when the response settles. A server that sends its last
 * progress and its result back to back (the same stdio chunk or SSE read) therefore loses that
 * progress. Deferring responses by one microtask, in arrival order, lets the already queued
 * notification handlers run first. Call after `client.connect(transport)`, which installs the
 * handler this wraps.
 */
export function deliverProgressBeforeResponses(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    if ('id' in message && ('result' in message || 'error' in message)) {
      queueMicrotask(() => deliver(message, extra));
    } else {
      deliver(message, extra);
    }
  };
}

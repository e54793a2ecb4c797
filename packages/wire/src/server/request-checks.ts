// The checks the SDK's streamable-HTTP transport makes of a request before it reads its body,
// made here by hand so that `SessionTransport` answers only what the SDK would accept and leaves
// everything else to the SDK to refuse with its own errors. Apart from the transport: they read
// nothing but the request's headers and the session's facts.
import type { IncomingMessage, IncomingHttpHeaders } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/** The session's bounds the checks compare a request with. */
export interface RequestBounds {
  /** The largest body read (the SDK transport's `maxRequestBodySize`). */
  readonly maxBodyBytes: number;
  /** Host headers accepted; undefined when the SDK transport checks none. */
  readonly allowedHosts?: readonly string[];
}

/**
 * What the SDK checks of a request of an open session, before it reads one. `sessionId` is the
 * open session's id: undefined when it is not initialized or closed (then nothing passes).
 */
export function passesSessionChecks(
  req: Pick<IncomingMessage, 'headers'>,
  sessionId: string | undefined,
  bounds: RequestBounds,
): boolean {
  const { headers } = req;
  const version = headers['mcp-protocol-version'];
  return (
    sessionId !== undefined &&
    headers['mcp-session-id'] === sessionId &&
    (headers.accept ?? '').includes('text/event-stream') &&
    (version === undefined ||
      (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version))) &&
    (bounds.allowedHosts === undefined || bounds.allowedHosts.includes(headers.host ?? ''))
  );
}

/**
 * The checks the SDK's transport makes of a POST, with a size known from Content-Length within
 * the bound: what passes may be answered without the SDK; what fails one is left to it, to refuse.
 */
export function mayAnswerPost(
  req: Pick<IncomingMessage, 'headers'>,
  sessionId: string | undefined,
  bounds: RequestBounds,
): boolean {
  const { headers } = req;
  const length = Number(headers['content-length']);
  return (
    passesSessionChecks(req, sessionId, bounds) &&
    typeof headers['mcp-protocol-version'] === 'string' &&
    sendsAndAcceptsJson(headers) &&
    Number.isInteger(length) &&
    length <= bounds.maxBodyBytes
  );
}

/**
 * A POST the SDK's transport would read (it passes the checks made before the body is read)
 * and whose size is not known before (no Content-Length): the caller reads it, within the same
 * bound, for its ids.
 */
export function sdkReadsUnsized(
  req: Pick<IncomingMessage, 'headers'>,
  sessionId: string | undefined,
  bounds: RequestBounds,
): boolean {
  return (
    req.headers['content-length'] === undefined &&
    passesSessionChecks(req, sessionId, bounds) &&
    sendsAndAcceptsJson(req.headers)
  );
}

// A JSON body (Content-Type, parameters aside) and a client that accepts a JSON answer.
const sendsAndAcceptsJson = (headers: IncomingHttpHeaders): boolean =>
  headers['content-type']?.split(';')[0]?.trim().toLowerCase() === 'application/json' &&
  (headers.accept ?? '').includes('application/json');

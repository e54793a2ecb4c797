import type { IncomingMessage } from 'node:http';
import {
  RELATED_TASK_META_KEY,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '@mcp-agent/core';

/**
 * Reads a request's whole body as UTF-8; undefined once it passes `maxBytes` (a body without
 * Content-Length: the rest is left unread). Its size was checked from Content-Length otherwise.
 */
export function readBody(
  req: IncomingMessage,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        req.off('data', onData);
        resolve(undefined);
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/**
 * The ids of the requests in a parsed body (one message or a batch): what must not be in flight
 * already. Loose on purpose: the SDK's schema decides later whether each is a valid request.
 */
export function requestIds(body: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of Array.isArray(body) ? body : [body])
    if (
      isJsonObject(message) &&
      typeof message.method === 'string' &&
      isIntegerOrString(message.id)
    )
      ids.push(message.id as RequestId);
  return ids;
}

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

const isIntegerOrString = (value: unknown): boolean =>
  typeof value === 'string' || Number.isSafeInteger(value);

/**
 * Whether a parsed body is one JSON-RPC request the SDK's schema (`JSONRPCRequestSchema`, strict)
 * accepts as it is: checked by hand, at a fraction of a schema parse's cost on every call. It is
 * never looser than the schema: what it turns down goes to the SDK's transport, which decides.
 * A request about a task (`_meta` naming one) is turned down too, and left to the SDK.
 */
export function isSingleRequest(body: unknown): body is JSONRPCRequest {
  if (!isJsonObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string')
    return false;
  if (!isIntegerOrString(body.id)) return false;
  for (const key in body) if (!REQUEST_KEYS.has(key)) return false;
  const { params } = body;
  if (params === undefined) return true;
  if (!isJsonObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isJsonObject(meta) || meta[RELATED_TASK_META_KEY] !== undefined) return false;
  return meta.progressToken === undefined || isIntegerOrString(meta.progressToken);
}

import type { IncomingMessage } from 'node:http';
import { RELATED_TASK_META_KEY, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '@mcp-agent/core';

/** Reads a request's whole body as UTF-8 (its size was checked from Content-Length before). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
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

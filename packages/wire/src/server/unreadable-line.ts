import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { UnreadableLineError, type UnreadableLineKind } from '../shared/json-rpc-line.js';

const MESSAGES: Record<UnreadableLineKind, string> = {
  'not-json': 'Parse error: the line is not JSON',
  batch:
    'Invalid Request: the line is a JSON-RPC batch (an array), which MCP does not support since protocol version 2025-06-18. Send each message on its own line.',
  'not-json-rpc':
    'Invalid Request: the line is not a JSON-RPC 2.0 message. Send one object per line with "jsonrpc": "2.0" and a "method" (a request or notification), or an "id" with a "result" or "error" (a response).',
};

/**
 * The JSON-RPC error a stdio server answers to a line it could not read as one message, from
 * the error its transport reported (`onerror`); undefined for any other error (a broken stream).
 * JSON-RPC 2.0 answers a parse error (-32700) and an invalid request (-32600) with id null; the
 * SDK's `StdioServerTransport` and `StdioLineTransport` both report such a line and answer
 * nothing, so the stdio gateway sends this on either wire. It reads both transports' errors:
 * `JSON.parse`'s `SyntaxError` on both, `UnreadableLineError` from `parseJsonRpcLine`, the
 * SDK's `ZodError` from `deserializeMessage` (an array is refused there as "expected object,
 * received array" by every branch of its message union), and the SDK `Protocol`'s "Unknown
 * message type" for an object `parseJsonRpcLine` let through that its schemas refuse.
 */
export function answerUnreadableLine(error: Error): JSONRPCMessage | undefined {
  const kind = unreadableLineKind(error);
  if (kind === undefined) return undefined;
  const code = kind === 'not-json' ? ErrorCode.ParseError : ErrorCode.InvalidRequest;
  const message =
    kind === 'not-json'
      ? `${MESSAGES[kind]} (${error.message}). Send each JSON-RPC 2.0 message as one line of JSON.`
      : MESSAGES[kind];
  // id null: JSON-RPC 2.0's answer when the request's id could not be read.
  return { jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage;
}

function unreadableLineKind(error: Error): UnreadableLineKind | undefined {
  if (error instanceof SyntaxError) return 'not-json';
  if (error instanceof UnreadableLineError) return error.kind;
  // The SDK Protocol's word for an object that is no request, notification or response (one the
  // lanes passed on: they check a line by hand, less strictly than the SDK's schema).
  if (error.message.startsWith('Unknown message type: ')) return 'not-json-rpc';
  const issues = (error as { issues?: unknown }).issues;
  // zod's classic ZodError or its core's $ZodError: the SDK's parse throws either, by version.
  if (!/ZodError$/.test(error.name) || !Array.isArray(issues)) return undefined;
  const branches = (issues[0] as { code?: unknown; errors?: unknown } | undefined)?.errors;
  const array =
    Array.isArray(branches) &&
    branches.length > 0 &&
    branches.every((branch: unknown) =>
      /received array$/.test(
        String((branch as { message?: unknown }[] | undefined)?.[0]?.message ?? ''),
      ),
    );
  return array ? 'batch' : 'not-json-rpc';
}

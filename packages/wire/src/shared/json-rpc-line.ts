import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Why a line is not one JSON-RPC message: not JSON, a batch (an array), or not JSON-RPC 2.0. */
export type UnreadableLineKind = 'not-json' | 'batch' | 'not-json-rpc';

/**
 * A line that is JSON but not one JSON-RPC 2.0 message object (see `parseJsonRpcLine`); a line
 * that is not JSON throws JSON.parse's own `SyntaxError`.
 */
export class UnreadableLineError extends Error {
  override readonly name = 'UnreadableLineError';

  constructor(
    readonly kind: Exclude<UnreadableLineKind, 'not-json'>,
    line: string,
  ) {
    super(
      `${kind === 'batch' ? 'A JSON-RPC batch' : 'Not a JSON-RPC 2.0 message'}: ${line.slice(0, 100)}`,
    );
  }
}

/**
 * One line of a stdio MCP stream as a JSON-RPC message: parsed once, and refused (thrown) when
 * it is not JSON (a `SyntaxError`), or is a batch or not a JSON-RPC 2.0 object (an
 * `UnreadableLineError` saying which). Its shape is not checked against the SDK's zod schemas
 * here, as the SDK's `deserializeMessage` does: the SDK's `Protocol` checks it again as it routes
 * it (a response, a request or a notification, else an error), and each request's and result's
 * own schema after that, so the first check only cost a copy per message.
 */
export function parseJsonRpcLine(line: string): JSONRPCMessage {
  const message: unknown = JSON.parse(line);
  if (Array.isArray(message)) throw new UnreadableLineError('batch', line);
  if (
    typeof message !== 'object' ||
    message === null ||
    (message as { jsonrpc?: unknown }).jsonrpc !== '2.0'
  )
    throw new UnreadableLineError('not-json-rpc', line);
  return message as JSONRPCMessage;
}

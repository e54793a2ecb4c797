import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * One line of a stdio MCP stream as a JSON-RPC message: parsed once, and refused (thrown) when
 * it is not JSON or not a JSON-RPC 2.0 object. Its shape is not checked against the SDK's zod
 * schemas here, as the SDK's `deserializeMessage` does: the SDK's `Protocol` checks it again as
 * it routes it (a response, a request or a notification, else an error), and each request's
 * and result's own schema after that, so the first check only cost a copy per message.
 */
export function parseJsonRpcLine(line: string): JSONRPCMessage {
  const message: unknown = JSON.parse(line);
  if (
    typeof message !== 'object' ||
    message === null ||
    (message as { jsonrpc?: unknown }).jsonrpc !== '2.0'
  )
    throw new Error(`Not a JSON-RPC 2.0 message: ${line.slice(0, 100)}`);
  return message as JSONRPCMessage;
}

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCMessage,
  type RequestId,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '@mcp-agent/core';
import { isSingleRequest } from './request-body.js';
import { countWire } from '../wire-activity.js';

/** What a `tools/call` handler uses of its request's context, on the lane as on the SDK's path. */
export interface CallExtra {
  /** Aborted when the client cancels the request or the session closes. */
  readonly signal: AbortSignal;
  /** Sends a notification about this request (its progress), on the request's own stream. */
  sendNotification(notification: ServerNotification): Promise<void>;
}

/** The gateway's `tools/call` handler: the same function answers on the lane and on the SDK's path. */
export type CallHandler = (request: CallToolRequest, extra: CallExtra) => Promise<CallToolResult>;

/**
 * Whether a message is a `tools/call` the lane answers: one request the SDK's schemas accept as
 * it is (see `isSingleRequest`), with a tool name, arguments that are an object when given, and
 * no task asked for. Never looser than the SDK's `CallToolRequestSchema`: what it turns down
 * goes on to the SDK's `Server`, which answers it or refuses it with its own error.
 */
export function isLaneCall(
  message: JSONRPCMessage,
): message is CallToolRequest & { jsonrpc: '2.0'; id: RequestId } {
  if ((message as { method?: unknown }).method !== 'tools/call' || !isSingleRequest(message))
    return false;
  const params = message.params;
  return (
    params !== undefined &&
    typeof params.name === 'string' &&
    (params.arguments === undefined || isJsonObject(params.arguments)) &&
    params.task === undefined
  );
}

/**
 * Answers `tools/call` beside the SDK's `Server` on a connected transport: the messages the lane
 * takes (see `isLaneCall`) go to `handle`, everything else (and every cancellation, too) to
 * the handler the server installed. It does what the SDK's `Protocol` does for a request — an
 * abort signal per request that the client's `notifications/cancelled` and the session's close
 * abort, the request's notifications sent with its id, nothing answered once it was cancelled,
 * a thrown error answered as a JSON-RPC error with its code — without what the SDK adds on this
 * path: three schema checks of every message to route it, two parses of the request and one of
 * the result the gateway built (a copy each), most of a gateway call's own CPU (`pnpm bench
 * gateway`). Call it right after `server.connect(transport)`.
 */
export function openCallLane(transport: Transport, handle: CallHandler): void {
  const running = new Map<RequestId, AbortController>();
  const answer = (request: CallToolRequest & { id: RequestId }): void => {
    const { id } = request;
    const controller = new AbortController();
    running.set(id, controller);
    const { signal } = controller;
    const extra: CallExtra = {
      signal,
      sendNotification: async (notification) => {
        if (!signal.aborted)
          // The SDK Protocol's key order, so both wire paths write the same bytes.
          await transport.send({ ...notification, jsonrpc: '2.0' }, { relatedRequestId: id });
      },
    };
    handle(request, extra)
      .then(
        (result) => (signal.aborted ? undefined : transport.send({ result, jsonrpc: '2.0', id })),
        (error: { code?: unknown; message?: string; data?: unknown }) => {
          if (signal.aborted) return undefined;
          const code = Number.isSafeInteger(error.code)
            ? (error.code as number)
            : ErrorCode.InternalError;
          return transport.send({
            jsonrpc: '2.0',
            id,
            error: {
              code,
              message: error.message ?? 'Internal error',
              ...(error.data === undefined ? {} : { data: error.data }),
            },
          });
        },
      )
      .catch((error: unknown) =>
        transport.onerror?.(new Error(`Failed to send response: ${String(error)}`)),
      )
      .finally(() => {
        if (running.get(id) === controller) running.delete(id);
      });
  };
  const sdkMessage = transport.onmessage;
  const sdkClose = transport.onclose;
  transport.onmessage = (message, extra) => {
    if (isLaneCall(message)) {
      countWire('callLaneCalls');
      answer(message);
      return;
    }
    const method = (message as { method?: unknown }).method;
    if (method === 'notifications/cancelled') {
      const params = (message as { params?: { requestId?: RequestId; reason?: unknown } }).params;
      if (params?.requestId !== undefined) running.get(params.requestId)?.abort(params.reason);
    }
    sdkMessage?.(message, extra);
  };
  transport.onclose = () => {
    for (const controller of running.values()) controller.abort();
    running.clear();
    sdkClose?.();
  };
}

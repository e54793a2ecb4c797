import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCResultResponse,
  type InitializeRequest,
  type InitializeResult,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { GatewaySessionRecord } from '@mcp-agent/registry';

// The id of the initialize request replayed to rebuild a session: the transport's own, answered
// before any request of the client's reaches it.
const RESTORE_ID = 'mcp-agent-restore';

// The part of the SDK transport a replay reaches (see `replayInitialize`).
interface WebStandardHandler {
  handleRequest(request: Request, options: { parsedBody: unknown }): Promise<Response>;
}

/**
 * Rebuilds, on a fresh SDK transport connected to a fresh server, a session another process
 * opened: replays its `initialize` as its client sent it (protocol version, capabilities,
 * client info), with the transport's session id generator giving the stored id. The transport
 * then takes the session's requests and the server knows its client, as on the process that
 * opened it. True once the replay was answered.
 *
 * Why a replay: the SDK has no public way to give a transport an existing session (its issue
 * #1658). The replay goes to the transport's web-standard handler, the one private name used,
 * checked here so that an SDK that renamed it fails loudly (and the session test with it).
 */
export async function replayInitialize(
  transport: StreamableHTTPServerTransport,
  record: Pick<GatewaySessionRecord, 'protocolVersion' | 'client'>,
  headers: { readonly host: string },
): Promise<boolean> {
  const web = (transport as unknown as { _webStandardTransport?: Partial<WebStandardHandler> })
    ._webStandardTransport;
  if (typeof web?.handleRequest !== 'function')
    throw new Error(
      'This version of the MCP SDK has no web-standard handler on its streamable HTTP transport: a gateway session cannot be restored from the database.',
    );
  const response = await (web as WebStandardHandler).handleRequest(
    new Request(`http://${headers.host}/mcp`, {
      method: 'POST',
      headers: {
        host: headers.host,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
    }),
    {
      parsedBody: {
        jsonrpc: '2.0',
        id: RESTORE_ID,
        method: 'initialize',
        params: {
          protocolVersion: record.protocolVersion,
          capabilities: record.client.capabilities,
          clientInfo: record.client.clientInfo,
        },
      },
    },
  );
  // The answer, read to its end: once it is, the server has taken the client's capabilities.
  const text = await response.text();
  return response.ok && text.includes('"result"');
}

/** What {@link recordInitialize} hands its writer: the settled `initialize`. */
export interface SettledInitialize {
  readonly protocolVersion: string;
  readonly client: GatewaySessionRecord['client'];
}

/**
 * Watches a new session's transport for its `initialize` (on its way in) and the answer to it
 * (on its way out), and has `record` write what was settled before the answer leaves: the
 * client's next request may reach another process, which must find the session. Returns the
 * function that stops watching (the transport as it was).
 */
export function recordInitialize(
  transport: Transport,
  record: (settled: SettledInitialize) => Promise<void>,
): () => void {
  const deliver = transport.onmessage;
  const send = transport.send;
  let initialize: (InitializeRequest & { id: RequestId }) | undefined;
  transport.onmessage = (message, extra) => {
    if (isInitializeRequest(message)) initialize = message as typeof initialize;
    deliver?.(message, extra);
  };
  transport.send = async (message, options) => {
    if (
      initialize !== undefined &&
      isJSONRPCResultResponse(message) &&
      message.id === initialize.id
    ) {
      const { protocolVersion } = message.result as InitializeResult;
      const { capabilities, clientInfo } = initialize.params;
      await record({ protocolVersion, client: { capabilities, clientInfo } });
    }
    return send.call(transport, message, options);
  };
  return () => {
    transport.onmessage = deliver;
    transport.send = send;
  };
}

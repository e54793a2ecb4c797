import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { deliverProgressBeforeResponses } from './ordered-progress.js';

/** A server that answers in one synchronous burst, as when progress and result share a read. */
class BurstTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;

  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return;
    if (message.method === 'initialize') {
      this.onmessage?.({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: { tools: {} },
          serverInfo: { name: 'burst', version: '1' },
        },
      });
      return;
    }
    const progressToken = (message.params?._meta as { progressToken?: number }).progressToken;
    for (const progress of [1, 2, 3]) {
      this.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken, progress, total: 3 },
      });
    }
    this.onmessage?.({ jsonrpc: '2.0', id: message.id, result: { content: [] } });
  }
}

async function progressSeen(ordered: boolean): Promise<number[]> {
  const transport = new BurstTransport();
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(transport);
  if (ordered) deliverProgressBeforeResponses(transport);
  const seen: number[] = [];
  await client.callTool({ name: 'work', arguments: {} }, undefined, {
    onprogress: (p) => seen.push(p.progress),
  });
  await client.close();
  return seen;
}

describe('deliverProgressBeforeResponses', () => {
  it('delivers progress that shares a read with the result, which the bare SDK client drops', async () => {
    expect(await progressSeen(false)).toEqual([]);
    expect(await progressSeen(true)).toEqual([1, 2, 3]);
  });
});

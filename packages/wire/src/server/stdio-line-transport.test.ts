import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { StdioLineTransport } from './stdio-line-transport.js';

function transport() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: string[] = [];
  stdout.on('data', (chunk: Buffer) => written.push(chunk.toString()));
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const oversized: number[] = [];
  const line = new StdioLineTransport({
    stdin,
    stdout,
    maxMessageBytes: 64,
    onOversized: ({ bytes }) => oversized.push(bytes),
  });
  line.onmessage = (message) => messages.push(message);
  line.onerror = (error) => errors.push(error.message);
  return { stdin, line, written, messages, errors, oversized };
}

describe('StdioLineTransport', () => {
  it('reads one message per line; a line that is not JSON-RPC is reported and the next is read', async () => {
    const { stdin, line, messages, errors, oversized } = transport();
    await line.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0",');
    stdin.write(`"method":"notifications/initialized"}\nnot json\n[1]\n${'x'.repeat(70)}\n`);
    stdin.write('{"jsonrpc":"2.0","id":2,"result":{}}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    expect(errors).toEqual([expect.stringMatching(/JSON/), 'A JSON-RPC batch: [1]']);
    expect(oversized).toEqual([70]);
  });

  it('writes each message as one line, and closes once when stdin ends', async () => {
    const { stdin, line, written } = transport();
    let closed = 0;
    line.onclose = () => (closed += 1);
    await line.start();
    await line.send({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    expect(written).toEqual(['{"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n']);
    stdin.end();
    await new Promise((resolve) => setImmediate(resolve));
    await line.close();
    expect(closed).toBe(1);
    await expect(line.start()).rejects.toThrow(/already started/);
  });
});

import { describe, expect, it } from 'vitest';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { parseJsonRpcLine } from '../shared/json-rpc-line.js';
import { answerUnreadableLine } from './unreadable-line.js';

/** What each transport reports for a line: parseJsonRpcLine's throw, the SDK's deserializeMessage's. */
function reported(read: (line: string) => unknown, line: string): Error {
  try {
    read(line);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`${line} was read`);
}

const LINES: [string, string, number, RegExp][] = [
  [
    'not JSON',
    '{"jsonrpc":"2.0","id":1,"method":',
    -32700,
    /^Parse error: the line is not JSON \(/,
  ],
  ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600, /JSON-RPC batch/],
  ['an empty batch', '[]', -32600, /JSON-RPC batch/],
  ['no jsonrpc', '{"id":15,"hello":"world"}', -32600, /not a JSON-RPC 2.0 message/],
  ['a number', '42', -32600, /not a JSON-RPC 2.0 message/],
];

describe('answerUnreadableLine: the answer to a stdio line that is not one JSON-RPC message', () => {
  it.each(LINES)(
    '%s: the same answer from either transport’s error (id null, the code JSON-RPC 2.0 names)',
    (_name, line, code, message) => {
      const lanes = answerUnreadableLine(reported(parseJsonRpcLine, line));
      const sdk = answerUnreadableLine(reported(deserializeMessage, line));
      expect(lanes).toEqual(sdk);
      expect(lanes).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
      expect((lanes as { error: { message: string } }).error.message).toMatch(message);
    },
  );

  it('an object the lanes pass on and the SDK Protocol cannot route: the answer the SDK transport gives it', () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}';
    expect(parseJsonRpcLine(line)).toMatchObject({ method: 'ping' });
    const routed = answerUnreadableLine(new Error(`Unknown message type: ${line}`));
    expect(routed).toEqual(answerUnreadableLine(reported(deserializeMessage, line)));
    expect(routed).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers nothing to an error that is not about a line (a broken stream, a buffer past its size)', () => {
    expect(answerUnreadableLine(new Error('read ECONNRESET'))).toBeUndefined();
    expect(
      answerUnreadableLine(new Error('ReadBuffer exceeded maximum size of 10 bytes')),
    ).toBeUndefined();
  });
});

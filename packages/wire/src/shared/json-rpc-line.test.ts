import { describe, expect, it } from 'vitest';
import { parseJsonRpcLine, UnreadableLineError } from './json-rpc-line.js';

describe('parseJsonRpcLine', () => {
  it('parses a JSON-RPC 2.0 line once, and refuses anything else by name', () => {
    expect(parseJsonRpcLine('{"jsonrpc":"2.0","id":3,"result":{"content":[]}}\r')).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { content: [] },
    });
    expect(() => parseJsonRpcLine('{"jsonrpc":"1.0","id":3}')).toThrow(/Not a JSON-RPC 2.0/);
    expect(() => parseJsonRpcLine('null')).toThrow(/Not a JSON-RPC 2.0/);
    expect(() => parseJsonRpcLine('{"id":')).toThrow(SyntaxError);
    expect(() => parseJsonRpcLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toThrow(
      expect.objectContaining({ kind: 'batch' }),
    );
    expect(() => parseJsonRpcLine('42')).toThrow(UnreadableLineError);
  });
});

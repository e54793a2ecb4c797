import { describe, expect, it } from 'vitest';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { checkedCallResult } from './call-tool-result.js';

describe('checkedCallResult', () => {
  it('keeps the common shape as it came, and gives what the SDK schema gives for the rest', () => {
    const plain = { content: [{ type: 'text', text: 'hi' }], isError: false, extra: 1 };
    expect(checkedCallResult(plain)).toBe(plain);
    expect(checkedCallResult(plain)).toEqual(CallToolResultSchema.parse(plain));
    const others: unknown[] = [
      {},
      { content: [{ type: 'text', text: 'hi', annotations: { priority: 1 }, stray: true }] },
      { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
      { content: [], structuredContent: { a: 1 }, _meta: { progressToken: 1 } },
    ];
    for (const result of others)
      expect(checkedCallResult(result)).toEqual(CallToolResultSchema.parse(result));
  });

  it('refuses what the SDK schema refuses, with its error', () => {
    const bad: unknown[] = [
      null,
      [],
      { content: 'text' },
      { content: [{ type: 'text', text: 1 }] },
      { content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] },
      { content: [], structuredContent: [1] },
      { content: [], isError: 'yes' },
    ];
    for (const result of bad) {
      expect(() => CallToolResultSchema.parse(result)).toThrow();
      expect(() => checkedCallResult(result)).toThrow();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { ErrorCode, QuotaExceededError } from '@mcp-agent/core';
import { answered, failed, observed } from './observation.js';

describe('Observation', () => {
  it('carries its JSON, exactly as JSON.stringify writes it, with its UTF-8 bytes', () => {
    const value = { tool_id: 'a.b', result: { name: 'Zoë "☃"', n: [1, null] }, truncated: true };
    const observation = observed(value);
    expect(observation.json.text).toBe(JSON.stringify(value));
    expect(observation.json.bytes).toBe(Buffer.byteLength(JSON.stringify(value), 'utf8'));
    for (const other of [answered(false, ['x', 'ÿ']), answered(true, 'plain ✓')]) {
      expect(other.json.text).toBe(JSON.stringify(other.value));
      expect(other.json.bytes).toBe(Buffer.byteLength(other.json.text, 'utf8'));
    }
  });

  it('copies in the JSON a field already has instead of writing that field again', () => {
    const result = { rows: ['Ünïcode', 'ok'] };
    const written = JSON.stringify(result);
    // A text that differs from what writing the value would give shows that it was reused.
    const known = { text: written.replace('ok', 'OK'), bytes: Buffer.byteLength(written, 'utf8') };
    const observation = observed({ tool_id: 'a.b', result, extra: undefined as never }, undefined, {
      key: 'result',
      json: known,
    });
    expect(observation.json.text).toBe(`{"tool_id":"a.b","result":${known.text}}`);
    expect(observation.json.bytes).toBe(
      Buffer.byteLength(JSON.stringify({ tool_id: 'a.b', result }), 'utf8'),
    );
  });

  it('keeps a failure whole as a value: code, message and details, for its reader to decide', () => {
    const quota = new QuotaExceededError('Quota reached.', {
      details: { limit: 'maxCallsPerHour', value: 1 },
    });
    const observation = failed(quota, { logs: [] });
    expect(observation).toMatchObject({
      ok: false,
      value: { error: { code: ErrorCode.QuotaExceeded, message: 'Quota reached.' }, logs: [] },
      error: { code: 'QUOTA_EXCEEDED', details: { limit: 'maxCallsPerHour', value: 1 } },
    });
    expect(observation.json.text).toBe(JSON.stringify(observation.value));
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ProcessTransport } from './process-transport.js';

// A child that reports the names of its environment as one JSON-RPC notification, then waits.
const REPORT_ENV = `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'env', params: { names: Object.keys(process.env).sort(), marker: process.env.WIRE_MARKER ?? null } }) + '\\n'); setInterval(() => {}, 1000);`;

describe('ProcessTransport environment', () => {
  const variable = 'WIRE_TEST_HOST_ONLY';
  afterEach(() => {
    Reflect.deleteProperty(process.env, variable);
  });

  it('gives the child exactly the environment the caller passed, nothing of the host', async () => {
    process.env[variable] = 'host-value';
    const transport = new ProcessTransport({
      command: process.execPath,
      args: ['-e', REPORT_ENV],
      env: { WIRE_MARKER: 'from-caller' },
      closeGraceMs: 200,
    });
    const first = new Promise<JSONRPCMessage>((resolve) => {
      transport.onmessage = resolve;
    });
    await transport.start();
    try {
      const message = (await first) as unknown as {
        params: { names: string[]; marker: string | null };
      };
      expect(message.params.marker).toBe('from-caller');
      expect(message.params.names).not.toContain(variable);
      expect(message.params.names).not.toContain('PATH');
    } finally {
      await transport.close();
    }
    expect(transport.exit).toBeDefined();
  });
});

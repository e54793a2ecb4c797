import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModelClient } from './model/anthropic-model-client.js';
import { openAgentStack, type OpenAgentStackOptions } from './open-agent.js';
import { startScriptedAnthropicServer } from './testing/index.js';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('openAgentStack', () => {
  it('`connectors: true`, the option before issue 31, still offers query_server in every task, with one DeprecationWarning', async () => {
    process.on('warning', onWarning);
    const home = mkdtempSync(join(tmpdir(), 'mcp-open-agent-'));
    const model = await startScriptedAnthropicServer();
    const old = { connectors: true } as OpenAgentStackOptions;
    const stack = await openAgentStack({
      ...old,
      home,
      env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
      sandbox: false,
      model: createAnthropicModelClient({ apiKey: 'test-key', baseURL: model.url, model: 'm' }),
    });
    try {
      model.push({ content: [{ type: 'text', text: 'ok' }] });
      const result = await stack.agent.executeTask('Anything?', 'ada');
      expect(result).toMatchObject({ status: 'completed', answer: 'ok' });
      expect(model.requests[0]?.body.tools?.map((t) => t.name)).toContain('query_server');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => [w.name, (w as { code?: string }).code, w.message])).toEqual([
        [
          'DeprecationWarning',
          'MCPAGENT_DEP_009',
          'OpenAgentStackOptions.connectors is deprecated: write OpenAgentStackOptions.serverAgents (same value).',
        ],
      ]);
    } finally {
      await stack.close();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});

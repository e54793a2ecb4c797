// Whole values for code callers, cuts for the model: a script's large return value reaches
// `exec` whole, and the gateway's run_code caller a structural cut it can read back whole.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '@mcp-agent/core';
import { reassemble } from '@mcp-agent/execution/testing';
import { cliHome, gatewayClient } from './cli-test-helpers.js';

const { home, env, run } = cliHome('mcp-cli-whole-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

// 1,000 rows, 99,911 characters as JSON: four times the sandbox's default return cap.
const CODE = 'return Array.from({ length: 1000 }, (_, i) => ({ i, text: "y".repeat(80) }));';
const ROWS = Array.from({ length: 1000 }, (_, i) => ({ i, text: 'y'.repeat(80) }));

describe('a large script return value', () => {
  it('reaches exec whole', () => {
    const script = join(home, 'rows.js');
    writeFileSync(script, CODE);
    const result = run(['exec', script]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(ROWS);
  });

  it("reaches the gateway's model as a structural cut that read_result rebuilds whole", async () => {
    const client = await gatewayClient(home, env);
    try {
      const text = async (name: string, args: Record<string, unknown>) => {
        const answer = await client.callTool({ name, arguments: args });
        const content = answer.content as { type: string; text: string }[];
        return JSON.parse(content[0]!.text) as Record<string, unknown>;
      };
      const cut = await text('run_code', { code: CODE });
      expect(cut.error).toBeUndefined();
      expect(cut.truncated).toBe(true);
      expect(typeof cut.observation_id).toBe('string');
      expect(JSON.stringify(cut.result).length).toBeLessThan(JSON.stringify(ROWS).length / 2);
      const whole = await reassemble(cut.result as JsonValue, {
        read: async (pointer) => {
          const page = await text('read_result', { ...pointer });
          if (page.error !== undefined) throw new Error(JSON.stringify(page.error));
          return page.value as JsonValue;
        },
        whole: () => {
          throw new Error('no media here');
        },
      });
      expect(whole).toEqual(ROWS);
    } finally {
      await client.close();
    }
  });
});

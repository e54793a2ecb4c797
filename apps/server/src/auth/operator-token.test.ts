import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OperatorToken } from './operator-token.js';

const TOKEN = 'op-0123456789abcdef0123456789abcdef';

describe('OperatorToken', () => {
  it('matches only "Bearer <the token>"', () => {
    const operator = new OperatorToken(TOKEN);
    expect(operator.matches(`Bearer ${TOKEN}`)).toBe(true);
    expect(operator.matches(`bearer ${TOKEN} `)).toBe(true);
    expect(operator.matches(`Bearer ${TOKEN}x`)).toBe(false);
    expect(operator.matches(TOKEN)).toBe(false);
    expect(operator.matches(undefined)).toBe(false);
  });

  it('comes from --operator-token-file, its variable, or MCP_AGENT_OPERATOR_TOKEN; short ones are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'op-token-'));
    const file = join(dir, 'operator');
    writeFileSync(file, `${TOKEN}\n`);
    expect(OperatorToken.fromConfig(file, {})?.matches(`Bearer ${TOKEN}`)).toBe(true);
    expect(
      OperatorToken.fromConfig(undefined, { MCP_AGENT_OPERATOR_TOKEN_FILE: file })?.matches(
        `Bearer ${TOKEN}`,
      ),
    ).toBe(true);
    expect(
      OperatorToken.fromConfig(undefined, { MCP_AGENT_OPERATOR_TOKEN: TOKEN })?.matches(
        `Bearer ${TOKEN}`,
      ),
    ).toBe(true);
    expect(OperatorToken.fromConfig(undefined, {})).toBeUndefined();
    expect(() => new OperatorToken('short')).toThrow(/at least 32 characters/);
    expect(() => OperatorToken.fromConfig(join(dir, 'missing'), {})).toThrow(
      /cannot be read \(ENOENT\)/,
    );
  });
});

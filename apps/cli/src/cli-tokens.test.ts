import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { openRegistry } from '@mcp-agent/registry';

// The built binary, as an operator runs it: tokens needs only the token file, no registry.
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-cli-tokens-'));
const file = join(dir, 'tokens.json');

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.MCP_AGENT_TOKENS_FILE;
  // No registry named: only `--home` below names one.
  delete env.MCP_AGENT_HOME;
  delete env.MCP_AGENT_DATABASE_URL;
  delete env.MCP_AGENT_SECRET_KEY;
  const result = spawnSync(process.execPath, [cli, ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mcp-agent tokens', { timeout: 90_000 }, () => {
  it('adds a token shown once, lists ids and users without tokens, and revokes by id', () => {
    const added = run('tokens', 'add', 'alice', '--tokens', file);
    expect(added.code).toBe(0);
    const [line, token] = added.stdout.trim().split('\n');
    expect(line).toMatch(/^added tok_[0-9a-f]{12} for alice; the token, shown this once/);
    expect(token).toMatch(/^mat_[\w-]{43}$/);
    expect(readFileSync(file, 'utf8')).not.toContain(token);

    const json = JSON.parse(run('--json', 'tokens', 'add', 'bob', '--tokens', file).stdout) as {
      id: string;
      user: string;
      token: string;
    };
    expect(json).toMatchObject({ user: 'bob', token: expect.stringMatching(/^mat_/) });

    const listed = run('tokens', 'list', '--tokens', file);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/ID\s+USER\s+CREATED\ntok_\w+\s+alice\s+\d{4}-/);
    expect(listed.stdout).not.toContain(token);
    expect(listed.stdout).not.toContain(json.token);

    const id = /tok_[0-9a-f]{12}/.exec(line as string)?.[0] as string;
    expect(run('tokens', 'revoke', id, '--tokens', file)).toMatchObject({
      code: 0,
      stdout: `revoked ${id} of alice\n`,
    });
    const left = JSON.parse(run('--json', 'tokens', 'list', '--tokens', file).stdout) as {
      user: string;
    }[];
    expect(left.map((t) => t.user)).toEqual(['bob']);
  });

  it("records an addition and a revocation in the user's audit log when the registry is named (--home)", async () => {
    const home = join(dir, 'home');
    const added = JSON.parse(
      run('--json', '--home', home, 'tokens', 'add', 'carol', '--tokens', file).stdout,
    ) as { id: string };
    expect(run('--home', home, 'tokens', 'revoke', added.id, '--tokens', file).code).toBe(0);
    const registry = await openRegistry({ home, env: {} });
    try {
      const entries = await registry.auditTrail(createContext({ userId: 'carol' }));
      expect(entries.map((e) => [e.action, e.actor, e.detail.tokenId])).toEqual([
        ['token.revoked', 'operator', added.id],
        ['token.added', 'operator', added.id],
      ]);
      expect(JSON.stringify(entries)).not.toContain('mat_');
    } finally {
      await registry.close();
    }
  });

  it('says what is missing: the file, the user, a known id', () => {
    expect(run('tokens', 'list')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--tokens <file> \(or MCP_AGENT_TOKENS_FILE\)/),
    });
    expect(run('tokens', 'add', '--tokens', file)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/needs a user/),
    });
    expect(run('tokens', 'revoke', 'tok_000000000000', '--tokens', file)).toMatchObject({
      code: 3,
      stderr: expect.stringMatching(/tokens list/),
    });
  });
});

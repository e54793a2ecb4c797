import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, serverFixtures } from '@mcp-agent/test-support';

// `auth login` end to end: the built binary, a loopback OAuth server, and this test as the browser.
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'mcp-cli-auth-'));
const baseEnv = {
  ...process.env,
  MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
  MCP_AGENT_USER: 'cli-user',
};
let fixture: ChildProcess;
let base = '';

function run(env: NodeJS.ProcessEnv, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, '--home', home, ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  fixture = spawn(process.execPath, [serverFixtures.oauth], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    fixture.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    fixture.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
  const added = run(baseEnv, 'servers', 'add', 'linear', '--url', `${base}/mcp`);
  expect(added.stdout).toMatch(/added linear/);
});
afterAll(() => {
  fixture.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('mcp-agent auth login (the built binary)', () => {
  it('before signing in, servers status says the server needs authorisation and how to sign in', () => {
    const status = run(baseEnv, 'servers', 'status');
    expect(status.code).toBe(4);
    expect(status.stdout).toMatch(
      /linear\s+needs_auth\s+-\s+the server requires authorisation \(HTTP 401\); sign in to it; run "mcp-agent auth login linear"/,
    );
  });

  it('refuses a loopback http authorisation server unless local development is opted in', async () => {
    const refused = run(baseEnv, 'auth', 'login', 'linear', '--port', String(await freePort()));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/not https|private or reserved/);
    expect(refused.stderr).toMatch(/MCP_AGENT_OAUTH_ALLOW_PRIVATE=1/);
  });

  it('prints the URL, receives the callback on loopback, stores the tokens, and its tools then work', async () => {
    const port = await freePort();
    const login = spawn(
      process.execPath,
      [cli, '--home', home, 'auth', 'login', 'linear', '--port', String(port)],
      {
        env: { ...baseEnv, MCP_AGENT_OAUTH_ALLOW_PRIVATE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    login.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => login.once('exit', resolve));
    const authorizationUrl = await new Promise<string>((resolve, reject) => {
      let err = '';
      login.stderr?.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const match = /Open this URL to sign in to linear:\s+(\S+)/.exec(err);
        if (match) resolve(match[1] as string);
      });
      void exited.then(() => reject(new Error(`auth login exited early: ${err}`)));
    });
    // The browser: the authorisation server redirects to the CLI's loopback callback.
    const redirect = await fetch(authorizationUrl, { redirect: 'manual' });
    const callback = redirect.headers.get('location') as string;
    expect(callback.startsWith(`http://127.0.0.1:${port}/callback?`)).toBe(true);
    const page = await fetch(callback);
    expect(await page.text()).toMatch(/Signed in/);
    expect(await exited).toBe(0);
    expect(stdout).toBe('signed in to linear\n');
    const called = run(
      { ...baseEnv, MCP_AGENT_OAUTH_ALLOW_PRIVATE: '1' },
      'tools',
      'call',
      'linear.whoami',
      '--args',
      '{}',
    );
    expect(called.code).toBe(0);
    expect(called.stdout).toMatch(/an authorised caller/);
  });
});

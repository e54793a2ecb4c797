import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { alive } from '@mcp-agent/test-support';

// The built binary, as a user starts it: `mcp-agent ui` prints a loopback URL with a token.
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'mcp-cli-ui-'));
const started: ChildProcess[] = [];
// A failed assertion must not leave the server (and its sandbox workers) running.
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('mcp-agent ui', { timeout: 90_000 }, () => {
  it('serves the UI on 127.0.0.1 for one user, with a random token in the printed URL; Ctrl-C stops it', async () => {
    const child = spawn(process.execPath, [cli, '--home', home, '--user', 'dana', 'ui'], {
      env: { ...process.env, MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${stdout}`)), 60_000);
      child.stdout.on('data', () => {
        const match = /(http:\/\/127\.0\.0\.1:\d+\/ui\/#token=([\w-]+))/.exec(stdout);
        if (match !== null) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
    });
    expect(stdout).toContain('mcp-agent UI for dana:');
    const base = url.slice(0, url.indexOf('/ui/'));
    const token = url.slice(url.indexOf('#token=') + 7);
    expect(token.length).toBeGreaterThanOrEqual(43);
    const page = await fetch(`${base}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="assets/app.js">');
    const session = await fetch(`${base}/ui/api/session`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await session.json()).toMatchObject({
      userId: 'dana',
      operator: true,
      canStartTasks: true,
    });
    expect((await fetch(`${base}/ui/api/session`)).status).toBe(401);
    const metrics = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('mcp_agent_process_memory');
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(alive(child.pid as number)).toBe(false);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamedBody } from '@mcp-agent/test-support';

// The built server as an operator runs it, so its memory is measured apart from the test's.
const main = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'mcp-body-limit-'));
const TOKEN = `alice-${randomBytes(12).toString('hex')}`;
const HUNDRED_MB = 100 * 1024 * 1024;
let server: ChildProcess;
let url: string;

const rssMb = () =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) / 1024;

const post = (method: string, path: string, declared?: number) =>
  fetch(`${url}${path}`, {
    method,
    duplex: 'half',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(declared === undefined ? {} : { 'content-length': String(declared) }),
    },
    body: streamedBody(HUNDRED_MB),
  } as RequestInit);

beforeAll(async () => {
  writeFileSync(join(home, 'tokens.json'), JSON.stringify({ tokens: { [TOKEN]: 'alice' } }));
  server = spawn(
    process.execPath,
    [main, '--port', '0', '--home', home, '--tokens', join(home, 'tokens.json')],
    {
      // The operator's limit, set as a deployment sets it (the default is 1 MiB).
      env: {
        ...process.env,
        MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
        MCP_AGENT_MAX_BODY_BYTES: '524288',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  url = await new Promise<string>((resolve, reject) => {
    let log = '';
    server.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /"url":"([^"]+)"/.exec(log);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    server.once('exit', (code) => reject(new Error(`the server exited (${code}): ${log}`)));
  });
});
afterAll(() => {
  server.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('request body limits', () => {
  it('API-03 100 MB bodies on every /v1 route and /mcp get 413 before they are read; RSS stays bounded', async () => {
    const before = rssMb();
    const routes: [string, string][] = [
      ['POST', '/v1/tasks'],
      ['POST', '/v1/servers'],
      ['DELETE', '/v1/servers/github'],
      ['POST', '/v1/servers/github/oauth'],
      ['DELETE', '/v1/tasks/task_1'],
      ['POST', '/v1/tasks/task_1/cancel'],
    ];
    for (const [method, path] of routes) {
      for (const declared of [HUNDRED_MB, undefined]) {
        const response = await post(method, path, declared);
        expect(response.status, `${method} ${path}`).toBe(413);
        expect(await response.json()).toEqual({
          error: {
            code: 'PAYLOAD_TOO_LARGE',
            message: expect.stringMatching(/larger than 524288 bytes.*maxBodyBytes/),
          },
        });
      }
    }
    const gateway = await post('POST', '/mcp');
    expect(gateway.status).toBe(413);
    expect(JSON.stringify(await gateway.json())).toMatch(/must not exceed 524288 bytes/);
    // Eight at once, streamed: the probe held 1.24 GB here.
    const concurrent = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post('POST', i % 2 ? '/mcp' : '/v1/tasks')),
    );
    expect(concurrent.map((r) => r.status)).toEqual(Array(8).fill(413));
    expect(rssMb() - before).toBeLessThan(50);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });

  it('API-03 a chunked body within the limit is read whole and validated as usual', async () => {
    const json = new TextEncoder().encode(JSON.stringify({ id: 'Bad.Id', transport: 'stdio' }));
    const response = await fetch(`${url}/v1/servers`, {
      method: 'POST',
      duplex: 'half',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(json.subarray(0, 10));
          controller.enqueue(json.subarray(10));
          controller.close();
        },
      }),
    } as RequestInit);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'CONFIG_INVALID', message: expect.stringMatching(/id: /) },
    });
  });
});

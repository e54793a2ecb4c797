// Issue 13's sandbox cases (catalogue section K): what a hostile tenant could do to the server
// process through run_code — its TypeScript, its tool arguments, the workers' environment.
import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { describe, expect, it } from 'vitest';
import { IsolatedVmSandbox } from './isolated-vm-sandbox.js';
import { echoTools, failure, sbx, stillWorks, useTestSandbox } from './sandbox-test-helpers.js';

useTestSandbox();

describe('K. the server process is out of reach of sandbox code', () => {
  const typed = 'interface P { n: number }\nconst p: P = { n: 4 };\nreturn p.n as number;';

  it("SBX-31 TypeScript with 10,000 nested parentheses fails clearly, and the next tenant's TypeScript runs", async () => {
    const hostile = `return ${'('.repeat(10_000)}1${')'.repeat(10_000)};`;
    expect(failure(await sbx.sandbox.run(hostile, { language: 'typescript' }))).toMatchObject({
      kind: 'limit',
      message: expect.stringMatching(
        /more than 256 levels deep \(sandbox limit maxTypeScriptNesting\)/,
      ),
    });
    // Another tenant, on whichever worker: both of them still strip.
    const others = await Promise.all(
      [1, 2, 3, 4].map(() => sbx.sandbox.run(typed, { language: 'typescript' })),
    );
    for (const other of others) expect(other).toMatchObject({ ok: true, value: 4 });
    // The same depth is JavaScript's own business: V8 parses it in the isolate.
    expect(await sbx.sandbox.run(hostile)).toMatchObject({ ok: true, value: 1 });
  });

  it('SBX-31 a worker whose stripper broke is replaced; the host never strips, and its own stripper still works', async () => {
    // Shallow in brackets, but 5,000 nested ifs overflow Node's stripper and leave it broken.
    const breaking = `let a = 1;\n${'if (a) '.repeat(5_000)}a = 2;\nreturn a;`;
    const sandbox = new IsolatedVmSandbox({ workers: 1 });
    try {
      await sandbox.run('return 1');
      const [before] = sandbox.workerPids;
      expect(failure(await sandbox.run(breaking, { language: 'typescript' }))).toMatchObject({
        kind: 'syntax',
        message: expect.stringMatching(/^TypeScript could not be stripped: the stripper failed/),
      });
      expect(await sandbox.run(typed, { language: 'typescript' })).toMatchObject({
        ok: true,
        value: 4,
      });
      expect(sandbox.workerPids).toHaveLength(1);
      expect(sandbox.workerPids).not.toContain(before);
    } finally {
      await sandbox.dispose();
    }
    expect(stripTypeScriptTypes('let b: string = "x"', { mode: 'strip' })).toBe(
      'let b         = "x"',
    );
  });

  it('SBX-31 code past maxCodeChars is refused before it leaves the host, in either language', async () => {
    for (const language of ['javascript', 'typescript'] as const) {
      expect(
        failure(
          await sbx.sandbox.run(`return 1;${' '.repeat(2_000)}`, {
            language,
            limits: { maxCodeChars: 1_000 },
          }),
        ),
      ).toMatchObject({
        kind: 'limit',
        message:
          'the code is 2009 characters; at most 1000 are accepted (sandbox limit maxCodeChars)',
      });
    }
    await stillWorks();
  });

  it("LOAD-06 workers run below the host's CPU priority, so a busy loop takes only what the host leaves", async () => {
    const niceness = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    expect(sbx.sandbox.workerPids.length).toBeGreaterThan(0);
    const host = niceness(process.pid);
    for (const pid of sbx.sandbox.workerPids) expect(niceness(pid)).toBe(Math.min(19, host + 10));
    const level = new IsolatedVmSandbox({ workers: 1, workerNiceness: 0 });
    try {
      for (const pid of level.workerPids) expect(niceness(pid)).toBe(host);
    } finally {
      await level.dispose();
    }
  });

  it('SBX-33 workers start with a minimal environment: no model key, database URL, vault key or token', async () => {
    const secrets: Record<string, string> = {
      ANTHROPIC_API_KEY: 'sk-ant-sbx33-secret',
      OPENAI_API_KEY: 'sk-sbx33-secret',
      MCP_AGENT_DATABASE_URL: 'postgres://agent:sbx33-password@db/agent',
      MCP_AGENT_SECRET_KEY: 'c2J4MzMtdmF1bHQta2V5LXNlY3JldC1zYngzMy12YXVsdA==',
      GITHUB_TOKEN: 'ghp_sbx33secret',
      NODE_OPTIONS: '--require /srv/app/sbx33-hook.js',
    };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets, { TZ: 'UTC' });
    const sandbox = new IsolatedVmSandbox({ workers: 1 });
    try {
      expect(await sandbox.run('return 1')).toMatchObject({ ok: true, value: 1 });
      const [pid] = sandbox.workerPids;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      const names = environ
        .split('\0')
        .filter((entry) => entry !== '')
        .map((entry) => entry.slice(0, entry.indexOf('=')));
      for (const [name, value] of Object.entries(secrets)) {
        expect(names).not.toContain(name);
        expect(environ).not.toContain(value);
      }
      // Besides the kept settings, only the IPC channel that fork() itself adds.
      const allowed = [
        'TZ',
        'LANG',
        'LC_ALL',
        'NODE_CHANNEL_FD',
        'NODE_CHANNEL_SERIALIZATION_MODE',
      ];
      expect(
        names.every((name) => allowed.includes(name)),
        names.join(),
      ).toBe(true);
      expect(names).toContain('TZ');
    } finally {
      await sandbox.dispose();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('SBX-32 a 2 MB tool argument, sent 40 times, is refused in the worker and never reaches the host (30 MB: the slow suite)', async () => {
    let hostCalls = 0;
    const options = {
      tools: echoTools,
      callTool: async () => {
        hostCalls += 1;
        return { ok: true as const, value: null };
      },
      limits: { deadlineMs: 10_000 },
    };
    const before = process.memoryUsage().rss;
    const result = await sbx.sandbox.run(
      `const big = 'x'.repeat(2 * 1024 * 1024);
       const errors = [];
       for (let i = 0; i < 40; i++) {
         try { await tools.util.echo({ big }); } catch (error) { errors.push(error.name + ': ' + error.message); }
       }
       return { refused: errors.length, first: errors[0] };`,
      options,
    );
    const grewMb = (process.memoryUsage().rss - before) / (1024 * 1024);
    expect(result).toMatchObject({
      ok: true,
      value: {
        refused: 40,
        first: expect.stringMatching(
          /^SandboxLimitError: tool arguments are \d+ characters as JSON; at most 1000000 bytes .*maxToolArgumentBytes/,
        ),
      },
    });
    expect(hostCalls).toBe(0);
    expect(grewMb).toBeLessThan(50);
    await stillWorks();
  });

  it('SBX-32 the limit counts UTF-8 bytes exactly, lets a call within it through, and fails an uncaught refusal as a limit', async () => {
    const received: number[] = [];
    const options = {
      tools: echoTools,
      callTool: async (_tool: unknown, args: unknown) => {
        received.push(JSON.stringify(args).length);
        return { ok: true as const, value: null };
      },
    };
    // 400,000 euro signs: 400,008 characters but 1,200,008 bytes as JSON.
    const euros = await sbx.sandbox.run(
      `try { await tools.util.echo({ s: '€'.repeat(400_000) }); } catch (error) { return error.message; }`,
      options,
    );
    expect(euros).toMatchObject({
      ok: true,
      value: expect.stringMatching(/^tool arguments are 1200008 bytes as JSON; at most 1000000/),
    });
    expect(
      await sbx.sandbox.run(
        `await tools.util.echo({ s: 'x'.repeat(999_000) }); return 'sent';`,
        options,
      ),
    ).toMatchObject({ ok: true, value: 'sent' });
    expect(received).toEqual([999_008]);
    const uncaught = failure(
      await sbx.sandbox.run(`await tools.util.echo({ s: 'x'.repeat(200) });`, {
        ...options,
        limits: { maxToolArgumentBytes: 100 },
      }),
    );
    expect(uncaught).toMatchObject({
      kind: 'limit',
      name: 'SandboxLimitError',
      message: expect.stringMatching(/at most 100 bytes .*maxToolArgumentBytes/),
    });
    expect(received).toHaveLength(1);
  });
});

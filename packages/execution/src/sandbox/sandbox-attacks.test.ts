import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsolatedVmSandbox } from './isolated-vm-sandbox.js';
import type { SandboxResult, SandboxRunOptions, SandboxToolReply } from './sandbox.js';

let sandbox: IsolatedVmSandbox;
beforeAll(() => {
  sandbox = new IsolatedVmSandbox({ workers: 2, limits: { deadlineMs: 1_000 } });
});
afterAll(async () => {
  await sandbox.dispose();
});

const echoTools = [{ provider: 'util', name: 'echo' }];
function withEcho(extra: Partial<SandboxRunOptions> = {}, onCall?: () => void): SandboxRunOptions {
  return {
    tools: echoTools,
    callTool: async (_tool, args) => {
      onCall?.();
      return { ok: true, value: args as never };
    },
    ...extra,
  };
}

async function timed(
  code: string,
  options: SandboxRunOptions = {},
): Promise<{ result: SandboxResult; ms: number }> {
  const started = performance.now();
  const result = await sandbox.run(code, options);
  return { result, ms: performance.now() - started };
}

function failure(result: SandboxResult) {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  return result.ok ? { kind: '', name: '', message: '' } : result.error;
}

async function stillWorks(): Promise<void> {
  const after = await sandbox.run('return 40 + 2');
  expect(after).toMatchObject({ ok: true, value: 42 });
}

describe('the sandbox runs code and tools', () => {
  it('returns values, captures console, calls tools and strips TypeScript', async () => {
    const result = await sandbox.run(
      'const a = await tools.util.echo({ n: 1 }); console.log("a is", a, [1, 2]); return { twice: a.n * 2 };',
      withEcho(),
    );
    expect(result).toMatchObject({
      ok: true,
      value: { twice: 2 },
      logs: ['a is {"n":1} [1,2]'],
      toolCalls: 1,
    });
    const typed = await sandbox.run(
      'interface P { n: number }\nconst p: P = { n: 4 };\nreturn p.n as number;',
      {
        language: 'typescript',
      },
    );
    expect(typed).toMatchObject({ ok: true, value: 4 });
    expect(
      failure(await sandbox.run('enum E { A }\nreturn E.A;', { language: 'typescript' })).message,
    ).toMatch(/TypeScript/);
  });

  it('reports syntax and runtime errors as bounded strings', async () => {
    expect(failure(await sandbox.run('return (;')).kind).toBe('syntax');
    expect(failure(await sandbox.run('null.x')).message).toMatch(/Cannot read properties of null/);
  });
});

describe('A. containment', () => {
  it('SBX-01 while(true){} times out by the deadline + 250 ms; the next run works', async () => {
    const { result, ms } = await timed('while (true) {}', { limits: { deadlineMs: 300 } });
    expect(failure(result).kind).toBe('timeout');
    expect(ms).toBeLessThan(300 + 250);
    await stillWorks();
  });

  it('SBX-02 a microtask flood times out the same way, and the host event loop keeps ticking', async () => {
    let ticks = 0;
    const interval = setInterval(() => (ticks += 1), 10);
    const { result, ms } = await timed(
      'function f() { Promise.resolve().then(f); } f(); await new Promise(() => {});',
      {
        limits: { deadlineMs: 300 },
      },
    );
    clearInterval(interval);
    expect(failure(result).kind).toBe('timeout');
    expect(ms).toBeLessThan(550);
    expect(ticks).toBeGreaterThan(10);
  });

  it('SBX-03 an async loop around host calls ends at the deadline and no call reaches the host after it', async () => {
    let calls = 0;
    let after = 0;
    let over = false;
    const { result, ms } = await timed('for (;;) await tools.util.echo({});', {
      ...withEcho({ limits: { deadlineMs: 300, maxToolCalls: 1_000_000 } }, () => {
        calls += 1;
        if (over) after += 1;
      }),
    });
    over = true;
    await new Promise((r) => setTimeout(r, 300));
    expect(failure(result).kind).toBe('timeout');
    expect(ms).toBeLessThan(550);
    expect(calls).toBeGreaterThan(0);
    expect(after).toBe(0);
    await stillWorks();
  });

  it('SBX-04 a promise that never settles ends at the deadline', async () => {
    const { result, ms } = await timed('await new Promise(() => {});', {
      limits: { deadlineMs: 300 },
    });
    expect(failure(result).kind).toBe('timeout');
    expect(ms).toBeLessThan(550);
  });

  it('SBX-05 object and string heap bombs stop at the memory limit; the host is unaffected', async () => {
    const before = process.memoryUsage().rss;
    const strings = await sandbox.run(
      'let s = "x"; const keep = []; for (;;) { s += s; keep.push(s); }',
      { limits: { deadlineMs: 5_000 } },
    );
    expect(['memory', 'crashed', 'runtime']).toContain(failure(strings).kind);
    const objects = await sandbox.run('const a = []; for (;;) a.push({ a: 1, b: [1, 2, 3] });', {
      limits: { deadlineMs: 10_000 },
    });
    expect(['memory', 'crashed']).toContain(failure(objects).kind);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    await stillWorks();
  });

  it('SBX-06 typed-array and SharedArrayBuffer bombs are contained', async () => {
    const typed = await sandbox.run(
      'const keep = []; for (;;) keep.push(new Uint8Array(2 * 1024 * 1024));',
      { limits: { deadlineMs: 5_000 } },
    );
    expect(typed.ok).toBe(false);
    const shared = await sandbox.run(
      'if (typeof SharedArrayBuffer === "undefined") return "absent"; const keep = []; for (;;) keep.push(new SharedArrayBuffer(8 * 1024 * 1024));',
      { limits: { deadlineMs: 5_000 } },
    );
    expect(shared.ok ? shared.value : 'contained').toMatch(/absent|contained/);
    await stillWorks();
  });

  it('SBX-07 WebAssembly does not exist in user code', async () => {
    expect(await sandbox.run('return typeof WebAssembly')).toMatchObject({
      ok: true,
      value: 'undefined',
    });
  });

  it('SBX-08 Array(1e9).fill(0) fails the run within 5 s while another run goes on', async () => {
    const other = sandbox.run('await Promise.resolve(); return "other run";');
    const { result, ms } = await timed('Array(1e9).fill(0); return 1;', {
      limits: { deadlineMs: 300 },
    });
    expect(result.ok).toBe(false);
    expect(ms).toBeLessThan(5_000);
    expect(await other).toMatchObject({ ok: true, value: 'other run' });
    await stillWorks();
  });

  it('SBX-08 a stuck worker (stopped mid-run) is killed after the grace and replaced within 5 s', async () => {
    const before = sandbox.workerPids;
    const pending = timed('for (;;) {}', { limits: { deadlineMs: 300 } });
    await new Promise((r) => setTimeout(r, 100));
    // SIGSTOP freezes whichever worker holds the run: it can neither dispose nor answer.
    for (const pid of before) process.kill(pid, 'SIGSTOP');
    const { result, ms } = await pending;
    expect(result.ok).toBe(false);
    expect(ms).toBeLessThan(300 + 250 + 200);
    for (const pid of before) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // killed and gone
      }
    }
    await expect
      .poll(() => sandbox.workerPids.filter((pid) => !before.includes(pid)).length, {
        timeout: 5_000,
      })
      .toBeGreaterThan(0);
    await stillWorks();
  });

  it('SBX-09 a thrown error whose message getter loops, or a result with a looping getter, never hangs the host', async () => {
    const thrown = await timed(
      'const e = new Error("x"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); throw e;',
      { limits: { deadlineMs: 300 } },
    );
    expect(thrown.result.ok).toBe(false);
    expect(thrown.ms).toBeLessThan(550);
    const returned = await timed('return { get x() { for (;;) {} } };', {
      limits: { deadlineMs: 300 },
    });
    expect(returned.result.ok).toBe(false);
    expect(returned.ms).toBeLessThan(550);
    await stillWorks();
  });

  it("SBX-10 a looping Error.prepareStackTrace is contained and the host's is untouched", async () => {
    const hostBefore = Error.prepareStackTrace;
    const { result, ms } = await timed(
      'Error.prepareStackTrace = () => { for (;;) {} }; throw new Error("x");',
      {
        limits: { deadlineMs: 300 },
      },
    );
    expect(result.ok).toBe(false);
    expect(ms).toBeLessThan(550);
    expect(Error.prepareStackTrace).toBe(hostBefore);
  });

  it('SBX-11 cause chains, AggregateError, non-Error throws and Symbols become bounded strings', async () => {
    expect(
      failure(await sandbox.run('throw new Error("outer", { cause: new Error("inner") })')).message,
    ).toBe('outer');
    expect(
      failure(await sandbox.run('throw new AggregateError([new Error("a")], "many")')).message,
    ).toBe('many');
    expect(failure(await sandbox.run('throw { toString() { return "custom" } }')).message).toBe(
      '{}',
    );
    expect(failure(await sandbox.run('throw Symbol("s")')).message).toBe('Symbol(s)');
    expect(failure(await sandbox.run('throw { message: "shaped" }')).message).toBe('shaped');
  });

  it('SBX-12 deep recursion, a huge eval and a 100k-level literal are contained', async () => {
    expect(failure(await sandbox.run('const f = () => f(); f();')).message).toMatch(
      /Maximum call stack/,
    );
    expect((await sandbox.run('eval("1".repeat(4e7))', { limits: { deadlineMs: 3_000 } })).ok).toBe(
      false,
    );
    expect((await sandbox.run(`return ${'['.repeat(100_000)}${']'.repeat(100_000)}`)).ok).toBe(
      false,
    );
    await stillWorks();
  });

  it('SBX-13 catastrophic backtracking is stopped by the deadline', async () => {
    const { result, ms } = await timed('return /(a+)+$/.test("a".repeat(40) + "!")', {
      limits: { deadlineMs: 300 },
    });
    expect(failure(result).kind).toBe('timeout');
    expect(ms).toBeLessThan(550);
  });

  it('SBX-14 no host global is reachable, by name or through constructors', async () => {
    const result = await sandbox.run(`
      const kinds = [typeof process, typeof require, typeof setTimeout, typeof fetch, typeof performance, typeof module, typeof Buffer];
      const viaFunction = (function () { try { return typeof this.constructor.constructor('return process')(); } catch (e) { return 'threw'; } })();
      const viaAsync = await (async () => { try { return typeof (await (async () => {}).constructor('return process')()); } catch (e) { return 'threw'; } })();
      let dynamicImport;
      try { await import('fs'); dynamicImport = 'imported'; } catch (e) { dynamicImport = 'rejected'; }
      return { kinds, viaFunction, viaAsync, dynamicImport };
    `);
    expect(result).toMatchObject({
      ok: true,
      value: {
        kinds: Array(7).fill('undefined'),
        viaFunction: expect.stringMatching(/^(undefined|threw)$/),
        viaAsync: expect.stringMatching(/^(undefined|threw)$/),
        dynamicImport: 'rejected',
      },
    });
  });

  it('SBX-15 injected functions called with odd receivers expose no host object', async () => {
    const result = await sandbox.run(
      `
      const fn = tools.util.echo;
      const viaCall = await fn.call(null, { a: 1 });
      const viaApply = await Reflect.apply(fn, undefined, [{ b: 2 }]);
      const viaBind = await fn.bind(null)({ c: 3 });
      // fn is an async function: its constructor is AsyncFunction, which answers with a promise.
      const g = await fn.constructor('return this')();
      const h = Function('return this')();
      return { viaCall, viaApply, viaBind, process: typeof g?.process, require: typeof g?.require, hostProcess: typeof h.process };
    `,
      withEcho(),
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        viaCall: { a: 1 },
        viaApply: { b: 2 },
        viaBind: { c: 3 },
        process: 'undefined',
        require: 'undefined',
        hostProcess: 'undefined',
      },
    });
  });

  it('SBX-16 no Reference, ExternalCopy, Callback, Isolate or ivm is reachable from the global graph', async () => {
    const result = await sandbox.run(
      `
      const seen = new Set(); const found = []; const queue = [globalThis];
      while (queue.length && seen.size < 20000) {
        const o = queue.shift();
        if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) continue;
        seen.add(o);
        let names = [];
        try { names = Object.getOwnPropertyNames(o); } catch {}
        for (const n of names) {
          if (/^(Reference|ExternalCopy|Callback|Isolate|ivm|NativeModule|Context|Script)$/.test(n)) found.push(n);
          let v; try { v = o[n]; } catch { continue; }
          queue.push(v);
        }
        try { queue.push(Object.getPrototypeOf(o)); } catch {}
      }
      const ctorNames = [...seen].map((o) => { try { return o.constructor && o.constructor.name; } catch { return ''; } });
      return { found, suspicious: ctorNames.filter((n) => /^(Reference|ExternalCopy|Callback|Isolate)$/.test(String(n))), visited: seen.size, globals: Object.getOwnPropertyNames(globalThis).filter((n) => /^[$_]|tools/.test(n)) };
    `,
      withEcho(),
    );
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : {}) as {
      found: string[];
      suspicious: string[];
      visited: number;
      globals: string[];
    };
    expect(value.found).toEqual([]);
    expect(value.suspicious).toEqual([]);
    expect(value.visited).toBeGreaterThan(100);
    expect(value.globals).toEqual(['tools']);
  });

  it('SBX-17 the API refuses cachedData and snapshots', async () => {
    for (const key of ['cachedData', 'snapshot']) {
      const result = await sandbox.run('return 1', {
        [key]: Buffer.from('x'),
      } as SandboxRunOptions);
      expect(failure(result).message).toMatch(new RegExp(`option "${key}" is not accepted`));
    }
  });

  it('SBX-18 a host tool failure never shows its message or paths to the sandbox', async () => {
    const result = await sandbox.run(
      'try { await tools.util.echo({}); } catch (e) { return { message: e.message, stack: String(e.stack) }; }',
      {
        tools: echoTools,
        callTool: async () => {
          throw new Error('password=hunter2 at /srv/app/db.ts:42');
        },
      },
    );
    expect(result.ok).toBe(true);
    const text = JSON.stringify(result);
    expect(text).not.toMatch(/hunter2|\/srv\/app/);
    expect(text).toMatch(/failed on the host/);
  });

  it('SBX-19 dropped rejected tool promises, even 1,000 of them, leave the host up', async () => {
    const rejecting = {
      tools: echoTools,
      callTool: async (): Promise<SandboxToolReply> => ({
        ok: false,
        error: { code: 'TOOL_EXECUTION_FAILED', message: 'nope' },
      }),
    };
    const handled = await sandbox.run(
      'for (let i = 0; i < 1000; i++) tools.util.echo({}).catch(() => {}); return "survived";',
      rejecting,
    );
    expect(handled).toMatchObject({ ok: true, value: 'survived' });
    // An unhandled one fails the run with a bounded message; the host and the worker stay up.
    const dropped = await sandbox.run(
      'tools.util.echo({}); await Promise.resolve(); return "done";',
      rejecting,
    );
    expect(dropped.ok ? 'done' : dropped.error.kind).toMatch(/done|runtime/);
    await stillWorks();
  });

  it('SBX-20 huge results are refused inside the isolate before they are copied out', async () => {
    const before = process.memoryUsage().rss;
    const string = failure(
      await sandbox.run('return "x".repeat(96 * 1024 * 1024)', { limits: { deadlineMs: 5_000 } }),
    );
    expect(['limit', 'memory', 'crashed']).toContain(string.kind);
    expect(
      failure(
        await sandbox.run('return Array.from({ length: 1e7 }, (_, i) => i)', {
          limits: { deadlineMs: 5_000 },
        }),
      ).kind,
    ).toMatch(/limit|memory|timeout/);
    expect(
      failure(
        await sandbox.run(
          'let o = {}; const root = o; for (let i = 0; i < 1e5; i++) o = o.x = {}; return root;',
          { limits: { deadlineMs: 5_000 } },
        ),
      ).kind,
    ).toMatch(/limit|runtime/);
    expect(process.memoryUsage().rss - before).toBeLessThan(2 * 24_000 + 64 * 1024 * 1024);
  });

  it('SBX-21 a 48 MB error message is cut inside the isolate', async () => {
    const error = failure(
      await sandbox.run('throw new Error("m".repeat(48 * 1024 * 1024))', {
        limits: { deadlineMs: 5_000 },
      }),
    );
    expect(error.message.length).toBeLessThanOrEqual(1_100);
  });

  it('SBX-22 __proto__ keys in results never pollute the host', async () => {
    const result = await sandbox.run(
      'return JSON.parse(\'{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}\')',
    );
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : {}) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    const spread = { ...value };
    JSON.stringify(value);
    expect(Object.keys(spread)).toContain('__proto__');
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect((Object.prototype as { x?: number }).x).toBeUndefined();
  });

  it('SBX-23 globals and prototype changes of one run are gone in the next', async () => {
    await sandbox.run(
      'globalThis.k = "secret"; Object.prototype.z = 1; Array.prototype.push = null; return 1',
    );
    expect(
      await sandbox.run('return [typeof globalThis.k, ({}).z === undefined, typeof [].push]'),
    ).toMatchObject({
      ok: true,
      value: ['undefined', true, 'function'],
    });
  });

  it('SBX-24 a tool-call flood stops at the call cap with at most 6 in flight upstream', async () => {
    let inFlight = 0;
    let peak = 0;
    let upstream = 0;
    const slow = async (): Promise<SandboxToolReply> => {
      upstream += 1;
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return { ok: true, value: null };
    };
    const flood = await sandbox.run(
      'const all = await Promise.allSettled(Array.from({ length: 10000 }, () => tools.util.echo({}))); return all.filter((r) => r.status === "fulfilled").length;',
      { tools: echoTools, callTool: slow, limits: { deadlineMs: 5_000 } },
    );
    expect(flood).toMatchObject({ ok: true, value: 50 });
    expect(upstream).toBe(50);
    expect(peak).toBeLessThanOrEqual(6);
    const sequential = await sandbox.run(
      'for (let i = 0; i < 1e6; i++) await tools.util.echo({});',
      {
        tools: echoTools,
        callTool: async () => ({ ok: true, value: null }),
        limits: { deadlineMs: 5_000 },
      },
    );
    expect(failure(sequential)).toMatchObject({
      kind: 'limit',
      message: expect.stringMatching(/at most 50 calls/),
    });
  });

  it('SBX-25 no high-resolution timer and no threads', async () => {
    expect(
      await sandbox.run(
        'return [typeof performance, typeof Worker, typeof Atomics?.waitAsync === "function" ? "maybe" : "none", typeof queueMicrotask]',
      ),
    ).toMatchObject({
      ok: true,
      value: ['undefined', 'undefined', expect.any(String), expect.any(String)],
    });
  });

  it('SBX-26 a worker started without --no-node-snapshot fails fast with a clear message', async () => {
    const worker = fileURLToPath(new URL('./sandbox-worker.ts', import.meta.url));
    const child = fork(worker, [], { execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const message = await new Promise<{ type: string; message?: string }>((resolve) =>
      child.once('message', resolve),
    );
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(message).toEqual({
      type: 'fatal',
      message: expect.stringMatching(/--no-node-snapshot/),
    });
    expect(code).toBe(78);
  });

  it('SBX-27 a run that ends while a host call is pending rejects at once; the late result is dropped', async () => {
    let late = false;
    const { result, ms } = await timed('await tools.util.echo({}); return "never";', {
      tools: echoTools,
      callTool: async () => {
        await new Promise((r) => setTimeout(r, 600));
        late = true;
        return { ok: true, value: 'late' };
      },
      limits: { deadlineMs: 200 },
    });
    expect(failure(result).kind).toBe('timeout');
    expect(ms).toBeLessThan(200 + 200);
    await new Promise((r) => setTimeout(r, 600));
    expect(late).toBe(true);
    await stillWorks();
  });

  it('SBX-29 the bridge never blocks the host on isolate promises (no applySync anywhere)', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    for (const file of readdirSync(dir).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    )) {
      expect(readFileSync(`${dir}/${file}`, 'utf8'), file).not.toMatch(
        /applySync|applySyncPromise|evalSync|runSync/,
      );
    }
  });

  it('SBX-30 fetch, WebSocket, XMLHttpRequest and remote imports are unavailable', async () => {
    const result = await sandbox.run(`
      let remote;
      try { await import('https://example.com/x.js'); remote = 'imported'; } catch { remote = 'rejected'; }
      return [typeof fetch, typeof WebSocket, typeof XMLHttpRequest, remote];
    `);
    expect(result).toMatchObject({
      ok: true,
      value: ['undefined', 'undefined', 'undefined', 'rejected'],
    });
  });
});

describe('B. tool bridge', () => {
  it('BRG-06 only the tools given to the run exist; anything else is not callable', async () => {
    const result = await sandbox.run(
      'const names = Object.keys(tools); let other; try { await tools.github.delete_repo({}); other = "called"; } catch (e) { other = e.constructor.name; } return { names, other };',
      withEcho(),
    );
    expect(result).toMatchObject({ ok: true, value: { names: ['util'], other: 'TypeError' } });
  });

  it('BRG-07 cancelling a run aborts the signal of its in-flight calls', async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const pending = sandbox.run('await Promise.all([tools.util.echo({}), tools.util.echo({})]);', {
      tools: echoTools,
      signal: controller.signal,
      callTool: (_tool, _args, signal) => {
        signals.push(signal);
        return new Promise((resolve) =>
          signal.addEventListener('abort', () =>
            resolve({ ok: false, error: { code: 'CANCELLED', message: 'x' } }),
          ),
        );
      },
    });
    await expect.poll(() => signals.length).toBe(2);
    controller.abort();
    expect(failure(await pending).kind).toBe('cancelled');
    expect(signals.every((s) => s.aborted)).toBe(true);
    await stillWorks();
  });
});

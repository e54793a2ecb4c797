import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SandboxRunOptions, SandboxToolReply } from './sandbox.js';
import {
  echoTools,
  expectEndedByDeadline,
  failure,
  sbx,
  stillWorks,
  timed,
  useTestSandbox,
  withEcho,
} from './sandbox-test-helpers.js';

useTestSandbox();

describe('A. isolation: nothing of the host is reachable, hostile values never hurt it', () => {
  it('SBX-09 a thrown error whose message getter loops, or a result with a looping getter, never hangs the host', async () => {
    const thrown = await timed(
      'const e = new Error("x"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); throw e;',
      { limits: { deadlineMs: 300 } },
    );
    expect(thrown.result.ok).toBe(false);
    expectEndedByDeadline(thrown.ms, 300);
    const returned = await timed('return { get x() { for (;;) {} } };', {
      limits: { deadlineMs: 300 },
    });
    expect(returned.result.ok).toBe(false);
    expectEndedByDeadline(returned.ms, 300);
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
    expectEndedByDeadline(ms, 300);
    expect(Error.prepareStackTrace).toBe(hostBefore);
  });

  it('SBX-11 cause chains, AggregateError, non-Error throws and Symbols become bounded strings', async () => {
    expect(
      failure(await sbx.sandbox.run('throw new Error("outer", { cause: new Error("inner") })'))
        .message,
    ).toBe('outer');
    expect(
      failure(await sbx.sandbox.run('throw new AggregateError([new Error("a")], "many")')).message,
    ).toBe('many');
    expect(failure(await sbx.sandbox.run('throw { toString() { return "custom" } }')).message).toBe(
      '{}',
    );
    expect(failure(await sbx.sandbox.run('throw Symbol("s")')).message).toBe('Symbol(s)');
    expect(failure(await sbx.sandbox.run('throw { message: "shaped" }')).message).toBe('shaped');
  });

  it('SBX-14 no host global is reachable, by name or through constructors', async () => {
    const result = await sbx.sandbox.run(`
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
    const result = await sbx.sandbox.run(
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
    const result = await sbx.sandbox.run(
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
      const result = await sbx.sandbox.run('return 1', {
        [key]: Buffer.from('x'),
      } as SandboxRunOptions);
      expect(failure(result).message).toMatch(new RegExp(`option "${key}" is not accepted`));
    }
  });

  it('SBX-18 a host tool failure never shows its message or paths to the sandbox', async () => {
    const result = await sbx.sandbox.run(
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
    const handled = await sbx.sandbox.run(
      'for (let i = 0; i < 1000; i++) tools.util.echo({}).catch(() => {}); return "survived";',
      rejecting,
    );
    expect(handled).toMatchObject({ ok: true, value: 'survived' });
    // An unhandled one fails the run with a bounded message; the host and the worker stay up.
    const dropped = await sbx.sandbox.run(
      'tools.util.echo({}); await Promise.resolve(); return "done";',
      rejecting,
    );
    expect(dropped.ok ? 'done' : dropped.error.kind).toMatch(/done|runtime/);
    await stillWorks();
  });

  it('SBX-22 __proto__ keys in results never pollute the host', async () => {
    const result = await sbx.sandbox.run(
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
    await sbx.sandbox.run(
      'globalThis.k = "secret"; Object.prototype.z = 1; Array.prototype.push = null; return 1',
    );
    expect(
      await sbx.sandbox.run('return [typeof globalThis.k, ({}).z === undefined, typeof [].push]'),
    ).toMatchObject({
      ok: true,
      value: ['undefined', true, 'function'],
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
    // The host call answers only when the test lets it: the run must end on its own, before it.
    let answer: () => void = () => undefined;
    let late = false;
    const { result, ms } = await timed('await tools.util.echo({}); return "never";', {
      tools: echoTools,
      callTool: async () => {
        await new Promise<void>((resolve) => (answer = resolve));
        late = true;
        return { ok: true, value: 'late' };
      },
      limits: { deadlineMs: 200 },
    });
    expect(failure(result).kind).toBe('timeout');
    expectEndedByDeadline(ms, 200);
    expect(late).toBe(false);
    answer();
    await expect.poll(() => late).toBe(true);
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
    const result = await sbx.sandbox.run(`
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
    const result = await sbx.sandbox.run(
      'const names = Object.keys(tools); let other; try { await tools.github.delete_repo({}); other = "called"; } catch (e) { other = e.constructor.name; } return { names, other };',
      withEcho(),
    );
    expect(result).toMatchObject({ ok: true, value: { names: ['util'], other: 'TypeError' } });
  });

  it('BRG-07 cancelling a run aborts the signal of its in-flight calls', async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const pending = sbx.sandbox.run(
      'await Promise.all([tools.util.echo({}), tools.util.echo({})]);',
      {
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
      },
    );
    await expect.poll(() => signals.length).toBe(2);
    controller.abort();
    expect(failure(await pending).kind).toBe('cancelled');
    expect(signals.every((s) => s.aborted)).toBe(true);
    await stillWorks();
  });

  it('BRG-06 a tool the run was not given says to describe it first, however it is reached', async () => {
    const result = await sbx.sandbox.run(
      `const messages = [];
      for (const call of [() => tools.memory.read_graph({}), () => tools.util.nope({}), () => tools['my-server']['get-item']()]) {
        try { await call(); } catch (error) { messages.push(error.constructor.name + ': ' + error.message); }
      }
      return { messages, inTools: 'memory' in tools, inUtil: 'nope' in tools.util, keys: Object.keys(tools.util) };`,
      withEcho(),
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        messages: [
          'TypeError: tools.memory.read_graph is not available: describe "memory.read_graph" with describe_tools first',
          'TypeError: tools.util.nope is not available: describe "util.nope" with describe_tools first',
          'TypeError: tools.my-server.get-item is not available: describe "my-server.get-item" with describe_tools first',
        ],
        inTools: false,
        inUtil: false,
        keys: ['echo'],
      },
    });
    // Uncaught, it fails the run with the same words.
    expect(
      failure(await sbx.sandbox.run('return await tools.memory.read_graph({});')),
    ).toMatchObject({
      kind: 'runtime',
      name: 'TypeError',
      message: expect.stringMatching(/describe "memory\.read_graph" with describe_tools first/),
    });
  });

  it('BRG-01 a hyphenated server and tool answer to both spellings; then, constructor and __proto__ stay inert', async () => {
    const calls: string[] = [];
    const result = await sbx.sandbox.run(
      `const a = await tools.my_server.get_item({ n: 1 });
      const b = await tools['my-server']['get-item']({ n: 2 });
      const c = await tools.my_server['get-item']({ n: 3 });
      const same = tools['my-server'] === tools.my_server;
      const awaited = [await tools === tools, await tools.my_server === tools.my_server];
      const inert = [typeof tools.then, typeof tools.my_server.then, typeof tools.constructor, typeof tools.my_server.__proto__, Object.getPrototypeOf(tools)];
      const thenTool = await tools.my_server._then({ n: 4 });
      return { values: [a, b, c, thenTool], same, awaited, inert, keys: Object.keys(tools), serverKeys: Object.keys(tools.my_server), frozen: Object.isFrozen(tools) && Object.isFrozen(tools.my_server) };`,
      {
        tools: [
          { server: 'my-server', name: 'get-item' },
          { server: 'my-server', name: 'then' },
        ],
        callTool: async (tool, args) => {
          calls.push(`${tool.server}.${tool.name}`);
          return { ok: true, value: args as never };
        },
      },
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        values: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }],
        same: true,
        awaited: [true, true],
        inert: ['undefined', 'undefined', 'undefined', 'undefined', null],
        keys: ['my_server'],
        serverKeys: ['get_item', '_then'],
        frozen: true,
      },
    });
    expect(calls).toEqual([
      'my-server.get-item',
      'my-server.get-item',
      'my-server.get-item',
      'my-server.then',
    ]);
  });
});

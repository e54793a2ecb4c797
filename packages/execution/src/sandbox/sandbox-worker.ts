// A sandbox worker process: hosts isolated-vm isolates, one fresh isolate and context per run,
// and talks to its supervisor over IPC. Nothing of this process is reachable from user code:
// the only bridges are two isolated-vm Callbacks captured in the bootstrap's closure. Kept free
// of workspace imports (type imports are erased) so that the supervisor can start it from source
// or from dist.
import { existsSync } from 'node:fs';
import ivm from 'isolated-vm';
import type { ErrorCode } from '@mcp-agent/core';
import type { HostMessage, WorkerLimits, WorkerMessage } from './sandbox-protocol.js';
import type * as TypeScriptStrippingModule from './typescript-stripping.js';

type TypeScriptStripping = typeof TypeScriptStrippingModule;

const send = (message: WorkerMessage): void => {
  process.send?.(message);
};

if (!process.execArgv.includes('--no-node-snapshot')) {
  // isolated-vm crashes at random on Node 20+ without it; fail at boot with the reason instead.
  send({
    type: 'fatal',
    message: 'the sandbox worker must run with --no-node-snapshot (isolated-vm on Node 20+)',
  });
  process.exit(78);
}

// A sibling module, loaded by path: JavaScript in dist, TypeScript (stripped by Node) in source.
function sibling(name: string): string {
  const js = new URL(`./${name}.js`, import.meta.url);
  return existsSync(js) ? js.href : new URL(`./${name}.ts`, import.meta.url).href;
}
const { stripTypeScript } = (await import(sibling('typescript-stripping'))) as TypeScriptStripping;

// Runs in the isolate before user code, with $0 = tool bridge, $1 = log bridge, $2 = tools
// (JSON), $3 = limits (JSON). Captures every intrinsic it relies on first, so user code that
// patches JSON, String or Promise cannot change how results and errors are bounded. Tool calls
// go out through a fire-and-forget Callback; answers come back through the function this script
// returns, which only the worker holds (as a Reference): nothing host-side is reachable from
// user code, and no host promise is ever awaited synchronously.
const BOOTSTRAP = `
const bridge = $0, emit = $1, toolList = JSON.parse($2), limits = JSON.parse($3);
const stringify = JSON.stringify, parse = JSON.parse, slice = String.prototype.slice;
const apply = Reflect.apply, ObjectCreate = Object.create, freeze = Object.freeze, Str = String;
const ErrorClass = Error;
const clip = (text, max) => text.length > max ? apply(slice, text, [0, max]) + '…[truncated]' : text;
// A run that passes one of its limits fails with this name, which the host reads as kind 'limit'.
const limitError = (message) => { const error = new ErrorClass(message); error.name = 'SandboxLimitError'; return error; };
const describe = (value) => {
  try {
    if (typeof value === 'string') return value;
    if (value !== null && typeof value === 'object' && typeof value.message === 'string') return value.message;
    const json = stringify(value);
    return json === undefined ? Str(value) : json;
  } catch { try { return Str(value); } catch { return '[unprintable]'; } }
};
delete globalThis.WebAssembly;
let lines = 0;
const logger = (...args) => {
  if (lines >= limits.maxLogLines) return;
  lines += 1;
  let text = '';
  for (let i = 0; i < args.length; i++) text += (i ? ' ' : '') + describe(args[i]);
  emit(clip(text, limits.maxLogLineChars));
};
Object.defineProperty(globalThis, 'console', {
  value: freeze({ log: logger, info: logger, warn: logger, error: logger, debug: logger }),
});
const tooLarge = (size) => 'tool arguments are ' + size + ' as JSON; at most ' + limits.maxToolArgumentBytes + ' bytes may be sent in one call (sandbox limit maxToolArgumentBytes): send less per call';
const pending = new Map();
let calls = 0, inFlight = 0, nextCall = 0;
const waiting = [];
const acquire = () => new Promise((resolve) => {
  if (inFlight < limits.maxConcurrentToolCalls) { inFlight += 1; resolve(); } else waiting.push(resolve);
});
const release = () => { const next = waiting.shift(); if (next) next(); else inFlight -= 1; };
const ProxyClass = Proxy, hasOwn = Object.hasOwn, define = Object.defineProperty, TypeErrorClass = TypeError;
// Names that await, JSON or a console look up without meaning a tool: they read as absent.
const quiet = ObjectCreate(null);
for (const name of [...Object.getOwnPropertyNames(Object.prototype), 'then', 'toJSON']) quiet[name] = true;
const notAvailable = (server, tool) => async function () {
  throw new TypeErrorClass('tools.' + server + '.' + tool + ' is not available: describe "' + server + '.' + tool + '" with describe_tools first');
};
// A server or tool this run was not given reads as a function that says how to get it.
const guarded = (target, missing) => new ProxyClass(freeze(target), {
  get: (object, key) => typeof key !== 'string' || hasOwn(object, key) || quiet[key] === true ? object[key] : missing(key),
});
const spaces = ObjectCreate(null);
for (const [server, tool, safeServer, safeTool, , toolByName] of toolList) {
  const namespace = spaces[safeServer] || (spaces[safeServer] = ObjectCreate(null));
  namespace[safeTool] = async function (args) {
    calls += 1;
    if (calls > limits.maxToolCalls) throw limitError('tool call limit reached: at most ' + limits.maxToolCalls + ' calls per run');
    const json = stringify(args === undefined ? {} : args);
    // Characters never outnumber UTF-8 bytes: an argument this long is refused before it is
    // copied out of the isolate; the worker checks the exact byte count of the rest.
    if (json !== undefined && json.length > limits.maxToolArgumentBytes) throw limitError(tooLarge(json.length + ' characters'));
    await acquire();
    let reply;
    try {
      const id = nextCall++;
      const answer = new Promise((resolve) => pending.set(id, resolve));
      bridge(id, server, tool, json === undefined ? '{}' : json);
      reply = parse(await answer);
    } finally { release(); }
    if (!reply.ok) throw reply.limit === true ? limitError(reply.error.message) : new ErrorClass(reply.error.code + ': ' + reply.error.message);
    return reply.value;
  };
  // The exact name as a second, non-enumerable key: tools.my_server["get-item"].
  if (toolByName && !hasOwn(namespace, tool)) define(namespace, tool, { value: namespace[safeTool] });
}
const root = ObjectCreate(null);
for (const [server, , safeServer, , serverByName] of toolList) {
  if (!hasOwn(root, safeServer)) root[safeServer] = guarded(spaces[safeServer], (tool) => notAvailable(server, tool));
  if (serverByName && !hasOwn(root, server)) define(root, server, { value: root[safeServer] });
}
Object.defineProperty(globalThis, 'tools', {
  value: guarded(root, (server) => guarded(ObjectCreate(null), (tool) => notAvailable(server, tool))),
});
globalThis.__finish = (value) => {
  try {
    const json = stringify({ ok: true, value: value === undefined ? null : value });
    if (json.length > limits.maxResultChars) {
      return stringify({ ok: false, error: { name: 'ResultTooLarge', message: 'the result is ' + json.length + ' characters as JSON; at most ' + limits.maxResultChars + ' may be returned' } });
    }
    return json;
  } catch (error) {
    return stringify({ ok: false, error: { name: 'ResultNotSerialisable', message: clip(describe(error), limits.maxErrorChars) } });
  }
};
globalThis.__fail = (error) => {
  let name = 'Error';
  try { name = typeof error?.name === 'string' ? clip(error.name, 100) : typeof error; } catch {}
  return stringify({ ok: false, error: { name, message: clip(describe(error), limits.maxErrorChars) } });
};
return (id, json) => { const resolve = pending.get(id); if (resolve) { pending.delete(id); resolve(json); } };
`;

interface Run {
  readonly isolate: ivm.Isolate;
  /** The bootstrap's answer function, inside the isolate. */
  deliver: ivm.Reference<(id: number, json: string) => void> | undefined;
  aborted: boolean;
}

const runs = new Map<number, Run>();

async function execute(message: Extract<HostMessage, { type: 'run' }>): Promise<void> {
  const { runId, limits } = message;
  let code = message.code;
  if (message.language === 'typescript') {
    const stripped = stripTypeScript(code, limits.maxTypeScriptNesting);
    if (!stripped.ok) {
      const { kind, message: text, retire } = stripped;
      send({ type: 'done', runId, outcome: null, failure: { kind, message: text }, retire });
      return;
    }
    code = stripped.code;
  }
  let catastrophic: string | undefined;
  const isolate = new ivm.Isolate({
    memoryLimit: limits.memoryMb,
    onCatastrophicError: (message) => {
      catastrophic = message;
      // V8 lost control of this isolate; the process is poisoned: report and die.
      send({
        type: 'done',
        runId,
        outcome: null,
        failure: { kind: 'crashed', message: `catastrophic isolate error: ${message}` },
      });
      process.exit(70);
    },
  });
  const run: Run = { isolate, deliver: undefined, aborted: false };
  runs.set(runId, run);
  const watchdog = setTimeout(() => {
    run.aborted = true;
    if (!isolate.isDisposed) isolate.dispose();
  }, limits.deadlineMs);
  try {
    const context = await isolate.createContext();
    const bridge = new ivm.Callback(
      (callId: number, server: string, tool: string, argsJson: string) => {
        if (run.aborted) return;
        const json = String(argsJson);
        // The exact size, checked here so an oversized argument never crosses to the host (SBX-32).
        const bytes = Buffer.byteLength(json, 'utf8');
        if (bytes > limits.maxToolArgumentBytes) {
          const message = `tool arguments are ${bytes} bytes as JSON; at most ${limits.maxToolArgumentBytes} bytes may be sent in one call (sandbox limit maxToolArgumentBytes): send less per call`;
          answer(
            run,
            Number(callId),
            JSON.stringify({
              ok: false,
              limit: true,
              error: { code: 'INVALID_ARGUMENTS' satisfies ErrorCode, message },
            }),
          );
          return;
        }
        send({
          type: 'tool',
          runId,
          callId: Number(callId),
          server: String(server),
          tool: String(tool),
          argsJson: json,
        });
      },
      { ignored: true },
    );
    // Synchronous, so that every line reaches the host before the run's `done`: an ignored
    // callback may run after the script settles, and its line was lost (at most maxLogLines).
    const emit = new ivm.Callback(
      (line: string) => {
        send({ type: 'log', runId, line: String(line).slice(0, limits.maxLogLineChars + 20) });
      },
      { sync: true },
    );
    run.deliver = (await context.evalClosure(
      BOOTSTRAP,
      [bridge, emit, JSON.stringify(message.tools), JSON.stringify(limits)],
      {
        timeout: limits.deadlineMs,
        result: { reference: true },
      },
    )) as ivm.Reference<(id: number, json: string) => void>;
    let script: ivm.Script;
    try {
      script = await isolate.compileScript(
        `(async () => { const finish = globalThis.__finish, fail = globalThis.__fail; delete globalThis.__finish; delete globalThis.__fail;\n` +
          `try { return finish(await (async () => {\n${code}\n})()); } catch (error) { return fail(error); } })()`,
        // The two lines of the wrapper above the code: line numbers are the code's own.
        { filename: 'sandbox.js', lineOffset: -2 },
      );
    } catch (error) {
      send({
        type: 'done',
        runId,
        outcome: null,
        failure: { kind: 'syntax', message: bound(error, limits) },
      });
      return;
    }
    const outcome: unknown = await script.run(context, {
      timeout: limits.deadlineMs,
      promise: true,
      copy: true,
    });
    send({
      type: 'done',
      runId,
      outcome: typeof outcome === 'string' ? outcome : null,
      ...(typeof outcome === 'string'
        ? {}
        : {
            failure: { kind: 'crashed' as const, message: 'the script did not produce a result' },
          }),
    });
  } catch (error) {
    const message = bound(error, limits);
    const kind = /memory limit/i.test(message)
      ? 'memory'
      : run.aborted || /timed out/i.test(message)
        ? 'timeout'
        : /disposed/i.test(message)
          ? 'crashed'
          : 'runtime';
    send({
      type: 'done',
      runId,
      outcome: null,
      failure: { kind: catastrophic === undefined ? kind : 'crashed', message },
    });
  } finally {
    clearTimeout(watchdog);
    runs.delete(runId);
    run.deliver?.release();
    if (!isolate.isDisposed) isolate.dispose();
  }
}

// Answers a tool call of the run's isolate. Fire and forget: the isolate resolves the waiting call
// on its own thread, nothing comes back; a late answer to a disposed isolate is dropped.
function answer(run: Run, callId: number, json: string): void {
  if (run.deliver === undefined || run.aborted || run.isolate.isDisposed) return;
  try {
    run.deliver.applyIgnored(undefined, [callId, json], { arguments: { copy: true } });
  } catch {
    // The isolate went away between the check and the call.
  }
}

// Host-side errors are isolated-vm's own (their messages are safe); still, bound them.
function bound(error: unknown, limits: WorkerLimits): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > limits.maxErrorChars
    ? `${message.slice(0, limits.maxErrorChars)}…`
    : message;
}

process.on('message', (message: HostMessage) => {
  if (message.type === 'run') void execute(message);
  else if (message.type === 'tool-result') {
    const run = runs.get(message.runId);
    if (run !== undefined) answer(run, message.callId, message.json);
  } else if (message.type === 'abort') {
    const run = runs.get(message.runId);
    if (run !== undefined) {
      run.aborted = true;
      if (!run.isolate.isDisposed) run.isolate.dispose();
    }
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });

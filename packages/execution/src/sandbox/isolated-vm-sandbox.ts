import {
  captureTraceContext,
  ErrorCode,
  inSpan,
  instruments,
  markSpanFailed,
  withinTraceContext,
  type JsonValue,
  type TraceContext,
  clip,
} from '@mcp-agent/core';
import type { WorkerLimits, WorkerMessage } from './sandbox-protocol.js';
import { SandboxWorkerPool, type SandboxWorker } from './sandbox-worker-pool.js';
import {
  DEFAULT_SANDBOX_LIMITS,
  type Sandbox,
  type SandboxFailure,
  type SandboxLimits,
  type SandboxResult,
  type SandboxRunOptions,
  type SandboxTool,
} from './sandbox.js';
import { nameTools } from './tool-identifiers.js';
import { parseUntrusted } from './parse-untrusted.js';

/** Options of {@link IsolatedVmSandbox}. */
export interface IsolatedVmSandboxOptions {
  /** Worker processes; default 2. Runs beyond that wait for a free worker. */
  readonly workers?: number;
  /** Default limits of every run. */
  readonly limits?: Partial<SandboxLimits>;
  /** A worker whose resident memory passes this is killed and replaced; default 512 MB. */
  readonly workerRssCapMb?: number;
  /** After the deadline the host waits this long for the worker, then kills it; default 250 ms. */
  readonly killGraceMs?: number;
  /** A worker is replaced after this many runs, which bounds allocator growth; default 5,000. */
  readonly maxRunsPerWorker?: number;
  /**
   * How much nicer (lower CPU priority) than the host the workers run, 0 to 19; default 10, so
   * a tenant's busy loop takes only the CPU the host (serving the other tenants) leaves over.
   * 0 runs them at the host's priority.
   */
  readonly workerNiceness?: number;
}

interface ActiveRun {
  readonly worker: SandboxWorker;
  readonly tools: Map<string, SandboxTool>;
  readonly options: SandboxRunOptions;
  readonly limits: WorkerLimits;
  readonly logs: string[];
  readonly controller: AbortController;
  readonly finish: (result: SandboxResult) => void;
  readonly started: number;
  /** The run's span context: tool calls come back by message, outside it, and are run in it. */
  readonly traceContext: TraceContext;
  toolCalls: number;
  inFlight: number;
  over: boolean;
  cancelled: boolean;
}

// Fields a caller must never be able to pass on: compiled code or heap snapshots (CVE-2022-39266).
const FORBIDDEN_OPTIONS = ['cachedData', 'snapshot', 'produceCachedData'];

/**
 * The real sandbox: isolated-vm isolates in a pool of supervised worker processes (never in the
 * host process), a fresh isolate and context per run, tools as async functions that cross to
 * the host by message, and a host-side wall-clock watchdog that kills and replaces a worker that
 * does not stop by the deadline plus a grace. A crashed or poisoned worker is replaced; the host
 * and other runs carry on.
 */
export class IsolatedVmSandbox implements Sandbox {
  readonly #pool: SandboxWorkerPool;
  readonly #runs = new Map<number, ActiveRun>();
  readonly #limits: WorkerLimits;
  #nextRunId = 1;
  #disposed = false;

  constructor(options: IsolatedVmSandboxOptions = {}) {
    this.#limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    const rssCapMb = options.workerRssCapMb ?? 512;
    this.#pool = new SandboxWorkerPool({
      size: Math.max(1, options.workers ?? 2),
      rssCapMb,
      killGraceMs: options.killGraceMs ?? 250,
      maxRunsPerWorker: Math.max(1, options.maxRunsPerWorker ?? 5_000),
      niceness: Math.min(19, Math.max(0, Math.floor(options.workerNiceness ?? 10))),
      onMessage: (worker, message) => this.#onMessage(worker, message),
      onExit: (worker, reason) => {
        for (const run of this.#runsOn(worker))
          this.#finishFailed(
            run,
            run.cancelled ? 'cancelled' : 'crashed',
            `the sandbox worker died (${reason})`,
          );
      },
      onOverMemory: (worker) => {
        for (const run of this.#runsOn(worker))
          this.#finishFailed(
            run,
            'memory',
            `the sandbox worker passed its ${rssCapMb} MB memory cap`,
          );
      },
    });
  }

  /** The pids of the live workers (for tests and status views). */
  get workerPids(): number[] {
    return this.#pool.pids;
  }

  /**
   * Runs `code` in a `mcp_agent.sandbox.run` span (language, code size, tool calls, outcome):
   * the dispatches of its tool calls are its children, though they reach the host by message.
   */
  run(code: string, options: SandboxRunOptions = {}): Promise<SandboxResult> {
    const language = options.language === 'typescript' ? 'typescript' : 'javascript';
    return inSpan(
      'mcp_agent.sandbox.run',
      {
        attributes: {
          'mcp_agent.code.language': language,
          ...(typeof code === 'string' ? { 'mcp_agent.code.chars': code.length } : {}),
        },
      },
      async (span) => {
        const result = await this.#run(code, options, captureTraceContext());
        const outcome = result.ok ? 'ok' : result.error.kind;
        span.setAttributes({
          'mcp_agent.outcome': outcome,
          'mcp_agent.sandbox.tool_calls': result.toolCalls,
        });
        if (!result.ok) markSpanFailed(span, result.error.kind);
        const metrics = instruments();
        metrics.sandboxRuns.add(1, { outcome });
        metrics.sandboxDuration.record(result.durationMs / 1000, { outcome });
        return result;
      },
    );
  }

  async #run(
    code: string,
    options: SandboxRunOptions,
    traceContext: TraceContext,
  ): Promise<SandboxResult> {
    const started = performance.now();
    const fail = (kind: SandboxFailure, message: string): SandboxResult => ({
      ok: false,
      error: { kind, name: 'SandboxError', message },
      logs: [],
      toolCalls: 0,
      durationMs: Math.round(performance.now() - started),
    });
    if (this.#disposed) return fail('crashed', 'the sandbox is disposed');
    for (const key of FORBIDDEN_OPTIONS) {
      if (Object.hasOwn(options, key))
        return fail('syntax', `option "${key}" is not accepted: the sandbox only runs source code`);
    }
    if (typeof code !== 'string') return fail('syntax', 'code must be a string');
    if (options.signal?.aborted)
      return fail('cancelled', 'the run was cancelled before it started');
    const limits: WorkerLimits = { ...this.#limits, ...options.limits };
    // Checked here, so oversized code never crosses to a worker; TypeScript is stripped there.
    if (code.length > limits.maxCodeChars)
      return fail(
        'limit',
        `the code is ${code.length} characters; at most ${limits.maxCodeChars} are accepted (sandbox limit maxCodeChars)`,
      );
    const runId = this.#nextRunId++;
    const worker = await this.#pool.acquire(runId);
    try {
      await worker.ready;
    } catch (error) {
      this.#pool.release(worker, runId);
      return fail('crashed', `the sandbox worker could not start: ${(error as Error).message}`);
    }
    const named = nameTools(options.tools ?? []);
    return new Promise<SandboxResult>((resolve) => {
      const run: ActiveRun = {
        worker,
        tools: new Map(
          named.map((t) => [`${t.server}\u0000${t.name}`, { server: t.server, name: t.name }]),
        ),
        options,
        limits,
        logs: [],
        controller: new AbortController(),
        started,
        traceContext,
        toolCalls: 0,
        inFlight: 0,
        over: false,
        cancelled: false,
        finish: (result) => {
          if (run.over) return;
          run.over = true;
          clearTimeout(watchdog);
          options.signal?.removeEventListener('abort', onAbort);
          run.controller.abort(new Error('the sandbox run is over'));
          this.#runs.delete(runId);
          // The worker stays busy until it says this run is done: a timed-out isolate may still
          // be running, and the grace timer kills the worker if it does not stop.
          resolve(result);
        },
      };
      this.#runs.set(runId, run);
      const onAbort = () => {
        run.cancelled = true;
        this.#pool.send(worker, { type: 'abort', runId });
        this.#finishFailed(run, 'cancelled', 'the run was cancelled');
        this.#pool.killAfterGrace(worker);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      // The host's own watchdog: async code that ignores isolated-vm's timeout still ends here.
      const watchdog = setTimeout(() => {
        this.#pool.send(worker, { type: 'abort', runId });
        this.#finishFailed(run, 'timeout', `the run passed its ${limits.deadlineMs} ms deadline`);
        this.#pool.killAfterGrace(worker);
      }, limits.deadlineMs);
      this.#pool.send(worker, {
        type: 'run',
        runId,
        code,
        language: options.language === 'typescript' ? 'typescript' : 'javascript',
        tools: named.map(
          (t) =>
            [
              t.server,
              t.name,
              t.serverIdentifier,
              t.toolIdentifier,
              t.serverByName,
              t.toolByName,
            ] as const,
        ),
        limits,
      });
    });
  }

  /** Ends every run in progress as `cancelled` and disposes of the isolates. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    for (const run of this.#runs.values())
      this.#finishFailed(run, 'cancelled', 'the sandbox was disposed');
    await this.#pool.dispose();
  }

  #runsOn(worker: SandboxWorker): ActiveRun[] {
    return [...this.#runs.values()].filter((run) => run.worker === worker);
  }

  #onMessage(worker: SandboxWorker, message: WorkerMessage): void {
    if (message.type === 'ready' || message.type === 'fatal') return;
    if (message.type === 'done')
      this.#pool.release(worker, message.runId, { retire: message.retire === true });
    const run = this.#runs.get(message.runId);
    if (run === undefined || run.worker !== worker) return; // late news of a finished run
    if (message.type === 'log') {
      if (run.logs.length < run.limits.maxLogLines)
        run.logs.push(String(message.line).slice(0, run.limits.maxLogLineChars + 20));
    } else if (message.type === 'tool') {
      void this.#callTool(run, message);
    } else if (message.type === 'done') {
      this.#finishDone(run, message);
    }
  }

  async #callTool(
    run: ActiveRun,
    message: Extract<WorkerMessage, { type: 'tool' }>,
  ): Promise<void> {
    const reply = (json: string) => {
      if (!run.over)
        this.#pool.send(run.worker, {
          type: 'tool-result',
          runId: message.runId,
          callId: message.callId,
          json,
        });
    };
    const refuse = (code: ErrorCode, text: string) =>
      reply(JSON.stringify({ ok: false, error: { code, message: text } }));
    const tool = run.tools.get(`${message.server}\u0000${message.tool}`);
    // The isolate enforces the same caps; the host checks again in case it was subverted.
    if (run.over) return;
    if (tool === undefined) return refuse(ErrorCode.ToolNotFound, 'no such tool in this run');
    run.toolCalls += 1;
    if (run.toolCalls > run.limits.maxToolCalls)
      return refuse(ErrorCode.Sandbox, `tool call limit of ${run.limits.maxToolCalls} reached`);
    if (run.inFlight >= run.limits.maxConcurrentToolCalls)
      return refuse(ErrorCode.Sandbox, 'too many tool calls in flight');
    if (run.options.callTool === undefined)
      return refuse(ErrorCode.ToolNotFound, 'this run has no tools');
    let args: unknown;
    try {
      args = parseUntrusted(message.argsJson);
    } catch {
      return refuse(ErrorCode.InvalidArguments, 'the arguments are not valid JSON');
    }
    run.inFlight += 1;
    try {
      const callTool = run.options.callTool;
      const result = await withinTraceContext(run.traceContext, () =>
        callTool(tool, args, run.controller.signal),
      );
      reply(
        // A result whose JSON the dispatcher wrote already is not written again.
        result.ok && result.json !== undefined
          ? `{"ok":true,"value":${result.json}}`
          : JSON.stringify(
              result.ok
                ? { ok: true, value: result.value }
                : {
                    ok: false,
                    error: {
                      code: result.error.code,
                      message: clip(result.error.message, run.limits.maxErrorChars),
                    },
                  },
            ),
      );
    } catch {
      // A host failure's text (paths, secrets) never crosses into the sandbox (SBX-18).
      refuse(ErrorCode.ToolExecutionFailed, 'the tool call failed on the host');
    } finally {
      run.inFlight -= 1;
    }
  }

  #finishDone(run: ActiveRun, message: Extract<WorkerMessage, { type: 'done' }>): void {
    if (message.failure !== undefined) {
      const kind: SandboxFailure = run.cancelled ? 'cancelled' : message.failure.kind;
      this.#finishFailed(run, kind, message.failure.message);
      return;
    }
    let outcome: { ok: boolean; value?: JsonValue; error?: { name: string; message: string } };
    try {
      if (message.outcome === null || message.outcome.length > run.limits.maxResultChars + 2_000)
        throw new Error('oversized');
      outcome = parseUntrusted(message.outcome) as typeof outcome;
    } catch {
      this.#finishFailed(run, 'crashed', 'the sandbox returned an unreadable result');
      return;
    }
    if (outcome.ok) {
      run.finish({
        ok: true,
        value: outcome.value ?? null,
        logs: run.logs,
        toolCalls: run.toolCalls,
        durationMs: elapsed(run.started),
      });
    } else {
      const name = String(outcome.error?.name ?? 'Error').slice(0, 100);
      // Both names are set by the bootstrap's own checks (user code could set them too, and
      // only mislabel its own failure).
      const kind: SandboxFailure =
        name === 'ResultTooLarge' || name === 'SandboxLimitError' ? 'limit' : 'runtime';
      run.finish({
        ok: false,
        error: {
          kind,
          name,
          message: clip(String(outcome.error?.message ?? ''), run.limits.maxErrorChars),
        },
        logs: run.logs,
        toolCalls: run.toolCalls,
        durationMs: elapsed(run.started),
      });
    }
  }

  #finishFailed(run: ActiveRun, kind: SandboxFailure, message: string): void {
    run.finish({
      ok: false,
      error: { kind, name: 'SandboxError', message: clip(message, run.limits.maxErrorChars) },
      logs: run.logs,
      toolCalls: run.toolCalls,
      durationMs: elapsed(run.started),
    });
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

import { ErrorCode, type JsonValue, clip } from '@mcp-agent/core';
import { parseUntrusted } from '../sandbox/parse-untrusted.js';
import {
  DEFAULT_SANDBOX_LIMITS,
  type Sandbox,
  type SandboxFailure,
  type SandboxLimits,
  type SandboxResult,
  type SandboxRunOptions,
  type SandboxTool,
} from '../sandbox/sandbox.js';

/** What a {@link FakeSandbox} script gets: the run's options, with tools and console as code sees them. */
export interface FakeSandboxScriptOptions extends Omit<SandboxRunOptions, 'callTool' | 'limits'> {
  /** The run's limits, defaults filled in. */
  readonly limits: SandboxLimits;
  /**
   * `await tools.<server>.<tool>(args)`: the tool's value, or the error code would see
   * (`TypeError` for a tool the run was not given, `SandboxLimitError` past a limit,
   * `Error('CODE: message')` when the tool failed).
   */
  callTool(tool: SandboxTool, args?: unknown): Promise<JsonValue>;
  /** `console.log(...)`, bounded as in the real sandbox. */
  log(...values: unknown[]): void;
}

/** Stands in for the code: given the code and the run's options, returns what the code would. */
export type FakeSandboxScript = (
  code: string,
  options: FakeSandboxScriptOptions,
) => unknown | Promise<unknown>;

/** One call of {@link FakeSandbox.run}, as it was made. */
export interface FakeSandboxRun {
  readonly code: string;
  readonly options: SandboxRunOptions;
}

/**
 * A {@link Sandbox} in memory, for tests of the layers above it: a script plays the code, and
 * the fake applies what the real sandbox applies around it — the tools given to the run, the
 * call cap and concurrency cap, the argument and result sizes, the deadline, cancellation — and
 * answers a {@link SandboxResult} of the same shape, with the same error names and messages.
 * Arguments and values cross as JSON, as they do between isolate and host.
 */
export class FakeSandbox implements Sandbox {
  /** Every run, in order. */
  readonly runs: FakeSandboxRun[] = [];
  readonly #script: FakeSandboxScript;
  readonly #limits: SandboxLimits;
  #disposed = false;

  constructor(script: FakeSandboxScript, options: { limits?: Partial<SandboxLimits> } = {}) {
    this.#script = script;
    this.#limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  }

  async run(code: string, options: SandboxRunOptions = {}): Promise<SandboxResult> {
    this.runs.push({ code, options });
    const started = performance.now();
    const limits: SandboxLimits = { ...this.#limits, ...options.limits };
    const logs: string[] = [];
    let toolCalls = 0;
    const end = (kind: SandboxFailure, name: string, message: string): SandboxResult => ({
      ok: false,
      error: { kind, name, message: clip(message, limits.maxErrorChars) },
      logs,
      toolCalls,
      durationMs: Math.round(performance.now() - started),
    });
    if (this.#disposed) return end('crashed', 'SandboxError', 'the sandbox is disposed');
    if (options.signal?.aborted)
      return end('cancelled', 'SandboxError', 'the run was cancelled before it started');
    if (code.length > limits.maxCodeChars)
      return end(
        'limit',
        'SandboxError',
        `the code is ${code.length} characters; at most ${limits.maxCodeChars} are accepted (sandbox limit maxCodeChars)`,
      );

    const controller = new AbortController();
    const given = new Set((options.tools ?? []).map((t) => `${t.server}\u0000${t.name}`));
    let calls = 0;
    let inFlight = 0;
    const waiting: (() => void)[] = [];
    const callTool = async (tool: SandboxTool, args: unknown = {}): Promise<JsonValue> => {
      if (!given.has(`${tool.server}\u0000${tool.name}`))
        throw new TypeError(
          `tools.${tool.server}.${tool.name} is not available: describe "${tool.server}.${tool.name}" with describe_tools first`,
        );
      calls += 1;
      if (calls > limits.maxToolCalls)
        throw limitError(`tool call limit reached: at most ${limits.maxToolCalls} calls per run`);
      const json = JSON.stringify(args) ?? '{}';
      const bytes = Buffer.byteLength(json, 'utf8');
      if (bytes > limits.maxToolArgumentBytes)
        throw limitError(
          `tool arguments are ${bytes} bytes as JSON; at most ${limits.maxToolArgumentBytes} bytes may be sent in one call (sandbox limit maxToolArgumentBytes): send less per call`,
        );
      if (inFlight >= limits.maxConcurrentToolCalls)
        await new Promise<void>((resolve) => waiting.push(resolve));
      else inFlight += 1;
      try {
        toolCalls += 1;
        if (options.callTool === undefined)
          throw new Error(`${ErrorCode.ToolNotFound}: this run has no tools`);
        let reply;
        try {
          reply = await options.callTool(tool, parseUntrusted(json), controller.signal);
        } catch {
          throw new Error('TOOL_EXECUTION_FAILED: the tool call failed on the host');
        }
        if (!reply.ok)
          throw new Error(
            `${reply.error.code}: ${clip(reply.error.message, limits.maxErrorChars)}`,
          );
        return parseUntrusted(JSON.stringify(reply.value) ?? 'null');
      } finally {
        const next = waiting.shift();
        if (next === undefined) inFlight -= 1;
        else next();
      }
    };
    const log = (...values: unknown[]): void => {
      if (logs.length >= limits.maxLogLines) return;
      const text = values.map(describe).join(' ');
      logs.push(clip(text, limits.maxLogLineChars, '…[truncated]'));
    };

    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<SandboxResult>((resolve) => {
      timer = setTimeout(
        () =>
          resolve(
            end('timeout', 'SandboxError', `the run passed its ${limits.deadlineMs} ms deadline`),
          ),
        limits.deadlineMs,
      );
      onAbort = () => resolve(end('cancelled', 'SandboxError', 'the run was cancelled'));
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const { callTool: _host, limits: _limits, ...rest } = options;
    const finished = (async (): Promise<SandboxResult> => {
      let value: unknown;
      try {
        value = await this.#script(code, { ...rest, limits, callTool, log });
      } catch (error) {
        const named = (error as { name?: unknown } | null)?.name;
        const name = typeof named === 'string' ? named.slice(0, 100) : typeof error;
        return end(name === 'SandboxLimitError' ? 'limit' : 'runtime', name, describe(error));
      }
      let json: string;
      try {
        json = JSON.stringify({ ok: true, value: value === undefined ? null : value });
      } catch (error) {
        return end('runtime', 'ResultNotSerialisable', describe(error));
      }
      if (json.length > limits.maxResultChars)
        return end(
          'limit',
          'ResultTooLarge',
          `the result is ${json.length} characters as JSON; at most ${limits.maxResultChars} may be returned`,
        );
      const result = parseUntrusted(json) as { value: JsonValue };
      return {
        ok: true,
        value: result.value,
        logs,
        toolCalls,
        durationMs: Math.round(performance.now() - started),
      };
    })();
    try {
      return await Promise.race([finished, stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) options.signal?.removeEventListener('abort', onAbort);
      controller.abort(new Error('the sandbox run is over'));
    }
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
  }
}

function limitError(message: string): Error {
  const error = new Error(message);
  error.name = 'SandboxLimitError';
  return error;
}

// As the isolate prints a value in a log line or an error message.
function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  const message = (value as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

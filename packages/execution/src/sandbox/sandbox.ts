import type { JsonValue } from '@mcp-agent/core';

/** One tool the code may call, as `tools.<server>.<tool>(args)`. */
export interface SandboxTool {
  /** The server's id. */
  readonly server: string;
  /** The tool's name on that server. */
  readonly name: string;
}

/** What a tool call from the sandbox resolves to on the host side. */
export type SandboxToolReply =
  | {
      /** The call succeeded. */
      readonly ok: true;
      /** Its result, as the code receives it. */
      readonly value: JsonValue;
      /** `value`'s JSON (exactly `JSON.stringify(value)`), when written already: sent as it is. */
      readonly json?: string;
    }
  | {
      /** The call failed; the code's `await` throws. */
      readonly ok: false;
      /** Why, as the thrown error carries it. */
      readonly error: {
        /** The stable code (`RATE_LIMITED`, `TOOL_NOT_FOUND`…). */
        readonly code: string;
        /** What was wrong and how to fix it. */
        readonly message: string;
      };
    };

/** The limits of one run; every one has a safe default. */
export interface SandboxLimits {
  /** Wall-clock deadline, enforced by the host; default 30,000 ms. */
  readonly deadlineMs: number;
  /** Heap of the isolate, MB; default 64. */
  readonly memoryMb: number;
  /** Tool calls per run; default 50. */
  readonly maxToolCalls: number;
  /** Tool calls in flight at once; default 6. */
  readonly maxConcurrentToolCalls: number;
  /** The result as JSON, in characters; default 24,000. */
  readonly maxResultChars: number;
  /** console lines kept; default 100. */
  readonly maxLogLines: number;
  /** Characters per console line; default 1,000. */
  readonly maxLogLineChars: number;
  /** Characters of an error message; default 1,000. */
  readonly maxErrorChars: number;
  /**
   * The arguments of one tool call as JSON, in UTF-8 bytes; default 1,000,000 (the dispatcher's
   * own `maxArgumentBytes`). Checked in the worker, so a larger call never reaches the host.
   */
  readonly maxToolArgumentBytes: number;
  /** The code, in characters, checked before it leaves the host; default 1,000,000. */
  readonly maxCodeChars: number;
  /**
   * How deep brackets may nest in TypeScript, checked in the worker before stripping (deeper
   * code breaks Node's stripper); default 256.
   */
  readonly maxTypeScriptNesting: number;
}

/** The defaults of {@link SandboxLimits}. */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  deadlineMs: 30_000,
  memoryMb: 64,
  maxToolCalls: 50,
  maxConcurrentToolCalls: 6,
  maxResultChars: 24_000,
  maxLogLines: 100,
  maxLogLineChars: 1_000,
  maxErrorChars: 1_000,
  maxToolArgumentBytes: 1_000_000,
  maxCodeChars: 1_000_000,
  maxTypeScriptNesting: 256,
});

/** Options of one run. */
export interface SandboxRunOptions {
  /** The tools the code may call; no others are reachable. */
  readonly tools?: readonly SandboxTool[];
  /** Called for every tool call the code makes; the caller routes it through the dispatcher. */
  readonly callTool?: (
    tool: SandboxTool,
    args: unknown,
    signal: AbortSignal,
  ) => Promise<SandboxToolReply>;
  /** Limits of this run; the rest from {@link DEFAULT_SANDBOX_LIMITS}. */
  readonly limits?: Partial<SandboxLimits>;
  /** Ends the run as `cancelled`. */
  readonly signal?: AbortSignal;
  /**
   * `typescript` strips types with Node's own stripper, in the worker process; default
   * `javascript`.
   */
  readonly language?: 'javascript' | 'typescript';
}

/** Why a run failed. */
export type SandboxFailure =
  'syntax' | 'runtime' | 'timeout' | 'memory' | 'limit' | 'crashed' | 'cancelled';

/** How a run ended; a run never throws. */
export type SandboxResult =
  | {
      /** The code returned. */
      readonly ok: true;
      /** What it returned, as JSON. */
      readonly value: JsonValue;
      /** Its console lines, bounded by the limits. */
      readonly logs: readonly string[];
      /** Tool calls it made. */
      readonly toolCalls: number;
      /** How long it ran. */
      readonly durationMs: number;
    }
  | {
      /** The run failed. */
      readonly ok: false;
      /** Why. */
      readonly error: {
        /** The kind of failure. */
        readonly kind: SandboxFailure;
        /** The error's name (`TypeError`…). */
        readonly name: string;
        /** Its message, cut to `maxErrorChars`. */
        readonly message: string;
      };
      /** Its console lines until then. */
      readonly logs: readonly string[];
      /** Tool calls it made until then. */
      readonly toolCalls: number;
      /** How long it ran. */
      readonly durationMs: number;
    };

/**
 * Runs model-written code (an async function body: `return` gives the result) that calls tools
 * as `await tools.<server>.<tool>(args)`.
 */
export interface Sandbox {
  /**
   * Runs `code` to its end, a limit or a cancel. Never throws: a failure is a result with
   * `ok: false` and its `SandboxFailure` kind.
   *
   * @example
   * ```ts
   * const result = await sandbox.run(
   *   'const page = await tools.github.search_issues({ q: "bug" }); return page.total_count;',
   *   { tools, callTool, limits: { deadlineMs: 10_000 } },
   * );
   * if (result.ok) console.log(result.value);
   * ```
   */
  run(code: string, options?: SandboxRunOptions): Promise<SandboxResult>;
  /** Ends every run (as `cancelled`) and frees the isolates; the sandbox runs nothing after. */
  dispose(): Promise<void>;
}

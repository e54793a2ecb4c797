import type { SandboxLimits } from './sandbox.js';

/** Limits of one run, as the worker receives them (all already resolved). */
export type WorkerLimits = SandboxLimits;

/** Messages from the host to a worker. */
export type HostMessage =
  | {
      readonly type: 'run';
      readonly runId: number;
      readonly code: string;
      /** TypeScript is stripped in the worker, never in the host process. */
      readonly language: 'javascript' | 'typescript';
      /**
       * [server, tool, server identifier, tool identifier, server also by its name, tool
       * also by its name], as `nameTools` made them.
       */
      readonly tools: readonly (readonly [string, string, string, string, boolean, boolean])[];
      readonly limits: WorkerLimits;
    }
  | {
      readonly type: 'tool-result';
      readonly runId: number;
      readonly callId: number;
      readonly json: string;
    }
  | { readonly type: 'abort'; readonly runId: number };

/** Messages from a worker to the host. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'fatal'; readonly message: string }
  | {
      readonly type: 'tool';
      readonly runId: number;
      readonly callId: number;
      readonly server: string;
      readonly tool: string;
      readonly argsJson: string;
    }
  | { readonly type: 'log'; readonly runId: number; readonly line: string }
  | {
      readonly type: 'done';
      readonly runId: number;
      /** `{"ok":true,"value":…}` or `{"ok":false,"error":{"name","message"}}`, made in the isolate. */
      readonly outcome: string | null;
      /** Set when the isolate itself failed (disposed, out of memory, syntax). */
      readonly failure?: {
        readonly kind:
          'timeout' | 'memory' | 'syntax' | 'runtime' | 'crashed' | 'cancelled' | 'limit';
        readonly message: string;
      };
      /** The worker may no longer be sound (its TypeScript stripper failed): replace it. */
      readonly retire?: boolean;
    };

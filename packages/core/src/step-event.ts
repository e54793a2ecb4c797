import type { JsonValue } from './json.js';

/** Events streamed to the caller while a task runs, in order. */
export type StepEvent =
  | {
      readonly type: 'step-start';
      readonly requestId: string;
      readonly step: number;
      /** When the step started, in epoch milliseconds by the task's clock. */
      readonly at?: number;
    }
  | {
      readonly type: 'tool-call';
      readonly requestId: string;
      readonly step: number;
      readonly command: string;
      readonly arguments: JsonValue;
    }
  | {
      /** A tool's progress while a command runs (its server's notifications, a task's status). */
      readonly type: 'progress';
      readonly requestId: string;
      readonly step: number;
      readonly command: string;
      readonly progress: number;
      readonly total?: number;
      readonly message?: string;
    }
  | {
      readonly type: 'observation';
      readonly requestId: string;
      readonly step: number;
      readonly ok: boolean;
      readonly observation: JsonValue;
      /** How long the command took (its model request too, for a step's first command). */
      readonly durationMs?: number;
      /** Model tokens charged to this command: a response's tokens go to its first command. */
      readonly inputTokens?: number;
      readonly outputTokens?: number;
    }
  | {
      readonly type: 'answer';
      readonly requestId: string;
      readonly answer: string;
      /** The tokens and duration of the step that answered. */
      readonly inputTokens?: number;
      readonly outputTokens?: number;
      readonly durationMs?: number;
    };

/** The `type` of a {@link StepEvent}. */
export type StepEventType = StepEvent['type'];

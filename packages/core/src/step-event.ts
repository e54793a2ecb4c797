import type { JsonValue } from './json.js';

/**
 * Events streamed to the caller while a task runs, in order: per step, `step-start`, then for each
 * command the model chose a `tool-call`, any `progress` and its `observation`; the last step
 * sends `answer` instead. A task ended by a limit or a failure sends no `answer`; its result says
 * why.
 */
export type StepEvent =
  | {
      /** A model request is about to be sent. */
      readonly type: 'step-start';
      /** The task's request id, the same on every event and on its result. */
      readonly requestId: string;
      /** The step's number, from 0: one model request and the commands it chose. */
      readonly step: number;
      /** When the step started, in epoch milliseconds by the task's clock. */
      readonly at?: number;
    }
  | {
      /** The model chose a command; sent before it runs. */
      readonly type: 'tool-call';
      /** The task's request id, the same on every event and on its result. */
      readonly requestId: string;
      /** The step's number, from 0: one model request and the commands it chose. */
      readonly step: number;
      /** The meta-tool the model called (`search_tools`, `call_tool`, `run_code`, …). */
      readonly command: string;
      /** Its arguments as the model sent them; JSON that did not parse as `{ invalid_json }`. */
      readonly arguments: JsonValue;
    }
  | {
      /** A tool's progress while a command runs (its server's notifications, a task's status). */
      readonly type: 'progress';
      /** The task's request id, the same on every event and on its result. */
      readonly requestId: string;
      /** The step's number, from 0: one model request and the commands it chose. */
      readonly step: number;
      /** The command that is running. */
      readonly command: string;
      /** How far it is, in the server's own unit; rises with each event of one command. */
      readonly progress: number;
      /** The `progress` at which it will be done, when the server knows it. */
      readonly total?: number;
      /** The server's words, cut to 500 characters. */
      readonly message?: string;
    }
  | {
      /** A command finished; what the model will see of it. */
      readonly type: 'observation';
      /** The task's request id, the same on every event and on its result. */
      readonly requestId: string;
      /** The step's number, from 0: one model request and the commands it chose. */
      readonly step: number;
      /** False when the command failed; `observation` then carries the error. */
      readonly ok: boolean;
      /** The command's result as the model sees it, within its size budget. */
      readonly observation: JsonValue;
      /** How long the command took (its model request too, for a step's first command). */
      readonly durationMs?: number;
      /** Model tokens charged to this command: a response's tokens go to its first command. */
      readonly inputTokens?: number;
      /** Output tokens charged to this command, by the same rule as `inputTokens`. */
      readonly outputTokens?: number;
    }
  | {
      /** The model answered without calling a command: the task is done. */
      readonly type: 'answer';
      /** The task's request id, the same on every event and on its result. */
      readonly requestId: string;
      /** The answer's text, the same as the result's `answer`. */
      readonly answer: string;
      /** The tokens and duration of the step that answered. */
      readonly inputTokens?: number;
      /** Output tokens of the answering step. */
      readonly outputTokens?: number;
      /** Milliseconds the answering step took, its model request included. */
      readonly durationMs?: number;
    };

/** The `type` of a {@link StepEvent}. */
export type StepEventType = StepEvent['type'];

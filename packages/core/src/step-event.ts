import type { JsonValue } from './json.js';

/** Events streamed to the caller while a task runs, in order. */
export type StepEvent =
  | { readonly type: 'step-start'; readonly requestId: string; readonly step: number }
  | {
      readonly type: 'tool-call';
      readonly requestId: string;
      readonly step: number;
      readonly command: string;
      readonly arguments: JsonValue;
    }
  | {
      readonly type: 'observation';
      readonly requestId: string;
      readonly step: number;
      readonly ok: boolean;
      readonly observation: JsonValue;
    }
  | { readonly type: 'answer'; readonly requestId: string; readonly answer: string };

/** The `type` of a {@link StepEvent}. */
export type StepEventType = StepEvent['type'];

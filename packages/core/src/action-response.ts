import type { ErrorCode } from './error-codes.js';
import type { JsonObject, JsonValue } from './json.js';
import type { ToolId } from './tool-id.js';

/** What every dispatched tool call reports besides its data. */
export interface ActionMeta {
  /** The tool that was called (or asked for, when the call was refused before reaching it). */
  readonly toolId: ToolId;
  /** Milliseconds from dispatch to the response, to the microsecond, failures included. */
  readonly durationMs: number;
  /** True when the envelope cut the observation to fit its budget. */
  readonly truncated: boolean;
  /** Where the full, uncut result is kept, when it was kept. */
  readonly observationId?: string;
}

/** An image shown to the reader of a result beside its data (see the envelope's image limits). */
export interface ActionImage {
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
  readonly mimeType: string;
  /** Base64. */
  readonly data: string;
  /** Where its block is in the kept result; empty for the root. */
  readonly path: string;
}

/**
 * A value's compact JSON text (`JSON.stringify`) and its UTF-8 bytes, written once where the
 * value was sized, so that every later hop (the envelope, the meta-tool session, the gateway's
 * answer and its telemetry) reuses it instead of writing the value out again.
 */
export interface JsonText {
  /** Exactly `JSON.stringify(value)`. */
  readonly text: string;
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
}

/** The error half of an {@link ActionResponse}. */
export interface ActionError {
  /** The stable code, as a thrown {@link McpAgentError} of the same failure would carry. */
  readonly code: ErrorCode;
  /** What went wrong and how to fix it, for the model or a person. */
  readonly message: string;
  /** JSON-safe facts (`suggestions`, `issues`, `retryAfterMs`, …), as on the error class. */
  readonly details: JsonObject;
}

/**
 * The outcome of one dispatched tool call; dispatch never throws past its boundary, so a
 * failure is a value to branch on.
 *
 * @example
 * ```ts
 * const response = await dispatcher.dispatchTool(ctx, 'github.create_issue', { title: 'Flaky' });
 * if (!response.ok) return `${response.error.code}: ${response.error.message}`;
 * use(response.data);
 * ```
 */
export type ActionResponse<T extends JsonValue = JsonValue> =
  | {
      /** The tool ran and returned a result that is not an error. */
      readonly ok: true;
      /** The tool's result as JSON; cut to fit its budget when `meta.truncated`. */
      readonly data: T;
      /** The call's tool, duration and cut. */
      readonly meta: ActionMeta;
      /** Images for a reader that sees them, when the call asked for them. */
      readonly images?: readonly ActionImage[];
      /**
       * The JSON text of `data`, when it is known without writing it again: the whole result
       * for code, or a model's within its budget, sized once by the dispatcher (a cut result has
       * none). Carried beside the data, not part of it: not enumerable, so JSON output and
       * spreads of a response leave it out.
       */
      readonly json?: JsonText;
    }
  | {
      /** The call was refused, did not reach the tool, or the tool reported an error. */
      readonly ok: false;
      /** What went wrong, with its stable code. */
      readonly error: ActionError;
      /** The call's tool and duration. */
      readonly meta: ActionMeta;
    };

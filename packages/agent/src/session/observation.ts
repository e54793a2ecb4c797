import {
  toMcpAgentError,
  type ActionError,
  type ActionImage,
  type ErrorCode,
  type JsonObject,
  type JsonText,
  type JsonValue,
} from '@mcp-agent/core';

/**
 * What one meta-tool call gives back to its caller (the model, or a gateway client): the one
 * shape of a tool's result from the session on. Its JSON is written once, here, reusing the text
 * of a result the dispatcher already wrote; the loop, the trajectory and the gateway's answer and
 * telemetry read `json` and never write `value` out again.
 */
export interface Observation {
  readonly ok: boolean;
  readonly value: JsonValue;
  /** `value` as compact JSON (exactly `JSON.stringify(value)`), with its UTF-8 bytes. */
  readonly json: JsonText;
  /** Images shown beside `value`, in order; `value` describes each where its block was. */
  readonly images?: readonly ActionImage[];
  /**
   * Why it failed, whole: a value to the end, so that the one who decides what a failure means
   * reads it here (the agent loop ends the task on a quota; a gateway client gets it as the call's
   * result).
   */
  readonly error?: ActionError;
}

/** Fields of an observation's value whose JSON is already written, by key. */
export type KnownJson = Readonly<Record<string, JsonText | undefined>>;

/**
 * A successful observation, with the images its reader is shown, if any. `known` gives the JSON
 * of fields the dispatcher already wrote (a tool's result within its budget), reused as it is.
 */
export function observed(
  value: JsonValue,
  images?: readonly ActionImage[],
  known?: KnownJson,
): Observation {
  const json = jsonOf(value, known);
  return images === undefined || images.length === 0
    ? { ok: true, value, json }
    : { ok: true, value, json, images };
}

/** An observation that may have failed without an error of its own (`ok` says). */
export function answered(ok: boolean, value: JsonValue): Observation {
  return { ok, value, json: jsonOf(value) };
}

/**
 * The one error payload of every meta-tool, for the agent and the gateway alike:
 * `{"error": {"code", "message"}}` plus whatever else the caller should see beside it.
 */
export function failed(
  error: { readonly code: ErrorCode; readonly message: string } | unknown,
  extra: Record<string, JsonValue> = {},
): Observation {
  const { code, message, details } = isCoded(error) ? error : toMcpAgentError(error);
  const value = { error: { code, message }, ...extra };
  return {
    ok: false,
    value,
    json: jsonOf(value),
    error: { code, message, details: details ?? {} },
  };
}

function isCoded(
  value: unknown,
): value is { code: ErrorCode; message: string; details?: JsonObject } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

// `value` as JSON.stringify writes it, the fields of `known` copied in as they are.
function jsonOf(value: JsonValue, known: KnownJson = {}): JsonText {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return write(value);
  let text = '{';
  let written = ''; // what was written here, to count its bytes; the known ones are counted
  let knownBytes = 0;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const reused = known[key];
    const part = reused === undefined ? JSON.stringify(item) : undefined;
    if (reused === undefined && part === undefined) continue; // JSON.stringify skips it too
    const head = `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:`;
    text += head + (reused?.text ?? part);
    written += head + (part ?? '');
    knownBytes += reused?.bytes ?? 0;
  }
  text += '}';
  return { text, bytes: Buffer.byteLength(written, 'utf8') + 2 + knownBytes };
}

function write(value: JsonValue): JsonText {
  const text = JSON.stringify(value);
  return { text, bytes: Buffer.byteLength(text, 'utf8') };
}

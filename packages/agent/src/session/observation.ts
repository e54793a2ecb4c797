import { randomBytes } from 'node:crypto';
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
  /** False when the call failed: `value` then holds `{"error": {"code", "message"}}`. */
  readonly ok: boolean;
  /** What the caller reads: the result's data, or the error and what else it should see. */
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

/** A field of an observation's value whose JSON is already written (a tool's result, sized). */
export interface KnownJson {
  /** The field's key in the value. */
  readonly key: string;
  /** Its JSON, when written; without it the field is written with the rest. */
  readonly json: JsonText | undefined;
}

/**
 * A successful observation, with the images its reader is shown, if any. `known` gives the JSON
 * of a field the dispatcher already wrote (a tool's result within its budget), reused as it is.
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

// A string no value holds (a NUL and 128 random bits), written where a known field's JSON goes.
const PLACEHOLDER = `\u0000${randomBytes(16).toString('hex')}`;
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

// `value` as JSON.stringify writes it, the known field's JSON copied in as it is: one write of
// the small rest (the placeholder keeps the field's place among the keys), never of the field.
function jsonOf(value: JsonValue, known?: KnownJson): JsonText {
  if (
    known?.json === undefined ||
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    !Object.hasOwn(value, known.key)
  )
    return write(value);
  const rest = JSON.stringify({ ...value, [known.key]: PLACEHOLDER });
  const at = rest.indexOf(PLACEHOLDER_JSON);
  return {
    text: rest.slice(0, at) + known.json.text + rest.slice(at + PLACEHOLDER_JSON.length),
    bytes: Buffer.byteLength(rest, 'utf8') - PLACEHOLDER_JSON.length + known.json.bytes,
  };
}

function write(value: JsonValue): JsonText {
  const text = JSON.stringify(value);
  return { text, bytes: Buffer.byteLength(text, 'utf8') };
}

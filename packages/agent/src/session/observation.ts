import { toMcpAgentError, type ActionImage, type ErrorCode, type JsonValue } from '@mcp-agent/core';

/** What one meta-tool call gives back to its caller (the model, or a gateway client). */
export interface Observation {
  /** False when the call failed: `value` then holds `{"error": {"code", "message"}}`. */
  readonly ok: boolean;
  /** What the caller reads: the result's data, or the error and what else it should see. */
  readonly value: JsonValue;
  /** Images shown beside `value`, in order; `value` describes each where its block was. */
  readonly images?: readonly ActionImage[];
}

/** A successful observation, with the images its reader is shown, if any. */
export function observed(value: JsonValue, images?: readonly ActionImage[]): Observation {
  return images === undefined || images.length === 0
    ? { ok: true, value }
    : { ok: true, value, images };
}

/**
 * The one error payload of every meta-tool, for the agent and the gateway alike:
 * `{"error": {"code", "message"}}` plus whatever else the caller should see beside it.
 */
export function failed(
  error: { readonly code: ErrorCode; readonly message: string } | unknown,
  extra: Record<string, JsonValue> = {},
): Observation {
  const { code, message } = isCoded(error) ? error : toMcpAgentError(error);
  return { ok: false, value: { error: { code, message }, ...extra } };
}

function isCoded(value: unknown): value is { code: ErrorCode; message: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

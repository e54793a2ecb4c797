import type { JsonValue } from '@mcp-agent/core';

/** UTF-8 bytes of JSON values, remembered per object so that a cut measures each node once. */
export class JsonSizes {
  // A Map, not a WeakMap: it lives for one cut, and ephemeron tables cost the collector dearly.
  readonly #sizes = new Map<object, number>();

  /** UTF-8 bytes of `value` as JSON. */
  of(value: JsonValue): number {
    if (typeof value === 'string') return stringSize(value);
    if (value === null || typeof value !== 'object') return String(value).length;
    const known = this.#sizes.get(value);
    if (known !== undefined) return known;
    let total = 2;
    let nested = false;
    if (Array.isArray(value)) {
      for (const item of value) total += this.of(item) + 1;
      if (value.length > 0) total -= 1;
      nested = true;
    } else {
      let keys = 0;
      for (const key in value) {
        const item = value[key] as JsonValue;
        total += stringSize(key) + 2 + this.of(item);
        nested ||= item !== null && typeof item === 'object';
        keys += 1;
      }
      if (keys > 0) total -= 1;
      nested ||= keys > 16;
    }
    // A small flat object costs less to measure again than to remember.
    if (nested) this.#sizes.set(value, total);
    return total;
  }
}

// Quotes, backslashes, control characters and surrogates are what JSON may write longer.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** UTF-8 bytes of `value` written as a JSON string, quotes included. */
export function stringSize(value: string): number {
  if (value.length > 4_096 && !NEEDS_ESCAPE.test(value)) {
    // A long string that needs no escaping: measured natively, nothing built.
    return Buffer.byteLength(value, 'utf8') + 2;
  }
  let total = 2;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (isHighCode(code) && i + 1 < value.length && isLow(value, i + 1)) {
      total += 4;
      i += 1;
    } else {
      total += charCost(code);
    }
  }
  return total;
}

/** UTF-8 bytes of one UTF-16 unit inside a JSON string, as `JSON.stringify` escapes it. */
export function charCost(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20)
    return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 6; // a lone surrogate is written \uXXXX
  return 3;
}

/** True for the first half of a surrogate pair. */
export function isHighCode(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True when `text[index]` is the first half of a surrogate pair. */
export function isHigh(text: string, index: number): boolean {
  return isHighCode(text.charCodeAt(index));
}

/** True when `text[index]` is the second half of a surrogate pair. */
export function isLow(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

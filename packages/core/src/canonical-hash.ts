import { createHash } from 'node:crypto';
import { compareText } from './compare-text.js';

/**
 * SHA-256 of `value` as canonical JSON (object keys sorted at every level), so the same tool
 * listed twice with keys in another order hashes the same, and any other change does not.
 * Keys whose value is `undefined` are left out, as `JSON.stringify` does; 64 hex digits.
 *
 * @example
 * ```ts
 * canonicalHash({ a: 1, b: [2] }) === canonicalHash({ b: [2], a: 1 }); // true
 * ```
 */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => compareText(a, b));
    return `{${entries.map(([k, item]) => `${JSON.stringify(k)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

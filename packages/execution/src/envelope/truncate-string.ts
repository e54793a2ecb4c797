/**
 * The first `max` UTF-16 units of `text`, never ending inside a surrogate pair, followed by a
 * marker that gives the original length. Returns `text` itself when it fits.
 */
export function truncateString(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max);
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}… [truncated: ${text.length} chars]`;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(;[\w=.+-]+)*;base64,/;

/** A short description of `text` when it is a base64 blob or data URL, else `undefined`. */
export function describeBlob(text: string): string | undefined {
  const dataUrl = DATA_URL.exec(text.slice(0, 200));
  if (dataUrl !== null) {
    return `[${dataUrl[1] ?? 'data'} data URL, ${approximateBytes(text.length - dataUrl[0].length)} bytes]`;
  }
  if (text.length < 256) return undefined;
  const sample = text.length > 4_096 ? text.slice(0, 2_048) + text.slice(-2_048) : text;
  if (!BASE64.test(sample.replace(/[\r\n]+/g, ''))) return undefined;
  return `[base64 data, ${approximateBytes(text.length)} bytes]`;
}

function approximateBytes(base64Length: number): number {
  return Math.floor((base64Length * 3) / 4);
}

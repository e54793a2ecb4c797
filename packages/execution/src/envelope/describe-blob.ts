const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(;[\w=.+-]+)*;base64,/;

/**
 * What `text` is when it is a base64 blob or a data URL (`base64 data, 3000 bytes`,
 * `image/png data URL, 3000 bytes`), else `undefined`. A string of 256+ base64 characters (line
 * breaks allowed, spaces not) counts as a blob; the envelope never cuts one in the middle.
 */
export function describeBlob(text: string): string | undefined {
  const dataUrl = DATA_URL.exec(text.slice(0, 200));
  if (dataUrl !== null) {
    return `${dataUrl[1] ?? 'data'} data URL, ${decodedBytes(text.slice(dataUrl[0].length))} bytes`;
  }
  if (text.length < 256) return undefined;
  const sample = text.length > 4_096 ? text.slice(0, 2_048) + text.slice(-2_048) : text;
  if (!BASE64.test(sample.replace(/[\r\n]+/g, ''))) return undefined;
  return `base64 data, ${decodedBytes(text)} bytes`;
}

/**
 * The decoded size of base64 (or base64url) text: line breaks and `=` padding are not data, so
 * they are not counted.
 */
export function decodedBytes(base64: string): number {
  const text = /[\r\n]/.test(base64) ? base64.replace(/[\r\n]+/g, '') : base64;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const length = text.length - padding;
  return Math.floor((length * 3) / 4);
}

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
    return `${dataUrl[1] ?? 'data'} data URL, ${approximateBytes(text.length - dataUrl[0].length)} bytes`;
  }
  if (text.length < 256) return undefined;
  const sample = text.length > 4_096 ? text.slice(0, 2_048) + text.slice(-2_048) : text;
  if (!BASE64.test(sample.replace(/[\r\n]+/g, ''))) return undefined;
  return `base64 data, ${approximateBytes(text.length)} bytes`;
}

/** The decoded size of `base64Length` characters of base64. */
export function approximateBytes(base64Length: number): number {
  return Math.floor((base64Length * 3) / 4);
}

import { toJsonSafe, type JsonValue } from '@mcp-agent/core';
import { containsMedia } from './media.js';

/** Nesting past this becomes a note: deeper data comes only from a hostile server. */
const MAX_DEPTH = 256;

/**
 * The value of a text that is a JSON object or array; any other text stays as it is (so a
 * tool that answers `42` or `"yes"` as text still gives text). Code gets whole results this
 * way, and the envelope parses JSON text before it cuts, so a cut is structural.
 */
export function parseJsonText(text: string): JsonValue {
  const start = /\S/.exec(text)?.[0];
  if (start !== '{' && start !== '[') return text;
  try {
    // JSON.parse defines keys as data, so a "__proto__" key stays a plain key.
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** A raw result as the envelope measures, cuts and keeps it. */
export interface ObservationDocument {
  readonly value: JsonValue;
  /** The exact JSON text of `value` when it is known without writing it again. */
  readonly json?: string;
  /**
   * True when a JSON text it parsed holds a media block (an image in a text block's JSON): the
   * only media the raw result did not show. Not looked for in a copy of a result with cycles.
   */
  readonly parsedMedia: boolean;
}

/**
 * A plain-JSON copy of a raw result, the form that is measured, cut and kept. `serialised` is
 * the raw result's JSON when it had one (the copy is then exactly what `JSON.parse` gives back);
 * otherwise core's `toJsonSafe` copies it (cycles, bigints, `undefined`, a `"__proto__"` key
 * kept as data). With `parseJsonText`, a result that is one JSON text and
 * the `text` of MCP text blocks are parsed, so that paths and cuts follow their structure. Media
 * stay whole.
 */
export function toObservationDocument(
  raw: unknown,
  serialised: string | undefined,
  options: { readonly parseJsonText: boolean },
): ObservationDocument {
  if (typeof raw === 'string') {
    // A text result: parsed when it is JSON, and then the text itself is the JSON of the value.
    const value = options.parseJsonText ? parseJsonText(raw) : raw;
    return value === raw
      ? { value, parsedMedia: false }
      : { value, json: raw, parsedMedia: containsMedia(value) };
  }
  if (serialised === undefined) {
    const value = toJsonSafe(raw, { maxDepth: MAX_DEPTH });
    if (options.parseJsonText) parseTextBlocks(value);
    return { value, parsedMedia: false };
  }
  const value = JSON.parse(serialised) as JsonValue;
  const parsed = options.parseJsonText ? parseTextBlocks(value) : { changed: false, media: false };
  return parsed.changed
    ? { value, parsedMedia: parsed.media }
    : { value, json: serialised, parsedMedia: false };
}

// In place, on a fresh copy: the text of every MCP text block that is JSON becomes its value.
// Says whether any did, and whether what they became holds media.
function parseTextBlocks(document: JsonValue): { changed: boolean; media: boolean } {
  let changed = false;
  let media = false;
  const stack: JsonValue[] = [document];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (node.type === 'text' && typeof node.text === 'string') {
      const parsed = parseJsonText(node.text);
      if (parsed !== node.text) {
        node.text = parsed;
        changed = true;
        media ||= containsMedia(parsed);
      }
    }
    for (const key of Object.keys(node)) stack.push(node[key] as JsonValue);
  }
  return { changed, media };
}

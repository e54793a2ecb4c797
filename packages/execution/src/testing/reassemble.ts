import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { MARKER_KEY, type ReadResultPointer } from '../envelope/markers.js';

/** How {@link reassemble} follows a pointer. */
export interface PointerReader {
  /** What `read_result` answers for the pointer (itself possibly cut, with further markers). */
  read(pointer: ReadResultPointer): Promise<JsonValue> | JsonValue;
  /** The kept value at the pointer's path, whole: media and base64 are never sent as text. */
  whole(pointer: ReadResultPointer): Promise<JsonValue> | JsonValue;
}

const STRING_TAIL =
  / … \[(\d+) more chars; read_result id=(\S+?)(?: offset=(\d+))?(?: path=(.*))?\]$/s;
const BLOB = /^\[[^\]]*?; read_result id=(\S+?)(?: path=(.*))?\]$/s;

/**
 * Rebuilds a whole result from a cut observation by following every marker, as a model would
 * with `read_result`: array tails, object tails, dropped values, string tails, blobs and media.
 * Tests use it to prove that every cut says truthfully where the rest is.
 */
export async function reassemble(value: JsonValue, reader: PointerReader): Promise<JsonValue> {
  if (typeof value === 'string') {
    const blob = BLOB.exec(value);
    if (blob !== null) return reader.whole(pointer(blob[1], undefined, blob[2]));
    const tail = STRING_TAIL.exec(value);
    if (tail === null) return value;
    const head = value.slice(0, tail.index);
    const rest = await reassemble(await reader.read(pointer(tail[2], tail[3], tail[4])), reader);
    return head + String(rest);
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const last = value.at(-1);
    // An array's tail marker counts items; a dropped object that happens to come last, keys.
    const marked = isMarker(last) && / more items /.test(String((last as JsonObject)[MARKER_KEY]));
    const head = marked ? value.slice(0, -1) : value;
    const out: JsonValue[] = [];
    for (const item of head) out.push(await reassemble(item, reader));
    if (marked) {
      const rest = await reassemble(await reader.read(markerPointer(last as JsonObject)), reader);
      out.push(...(rest as JsonValue[]));
    }
    return out;
  }
  if (isMarker(value)) return reassemble(await reader.read(markerPointer(value)), reader);
  const media = value.read_result as unknown as ReadResultPointer | undefined;
  if (typeof value.bytes === 'number' && media !== undefined && typeof value.type === 'string') {
    return reader.whole(media);
  }
  if (value.type === 'resource' && isMediaResource(value.resource)) {
    return reader.whole((value.resource as JsonObject).read_result as unknown as ReadResultPointer);
  }
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (/^…+$/.test(key) && isMarker(item)) {
      const rest = (await reassemble(
        await reader.read(markerPointer(item as JsonObject)),
        reader,
      )) as JsonObject;
      for (const [restKey, restItem] of Object.entries(rest)) define(out, restKey, restItem);
    } else {
      define(out, key, await reassemble(item, reader));
    }
  }
  return out;
}

function isMarker(value: JsonValue | undefined): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof value[MARKER_KEY] === 'string' &&
    Object.keys(value).length <= 2 &&
    (Object.keys(value).length === 1 || value.read_result !== undefined)
  );
}

function isMediaResource(value: JsonValue | undefined): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof value.bytes === 'number' &&
    value.read_result !== undefined
  );
}

function markerPointer(marker: JsonObject): ReadResultPointer {
  const pointer = marker.read_result as unknown as ReadResultPointer | undefined;
  if (pointer === undefined)
    throw new Error(`a marker without a pointer: ${JSON.stringify(marker)}`);
  return pointer;
}

function pointer(id: string | undefined, offset: string | undefined, path: string | undefined) {
  return {
    id: id as string,
    ...(path === undefined ? {} : { path }),
    ...(offset === undefined ? {} : { offset: Number(offset) }),
  };
}

function define(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true });
}

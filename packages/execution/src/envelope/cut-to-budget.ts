import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { describeBlob } from './describe-blob.js';
import { BYTES_PER_TOKEN } from './envelope-limits.js';
import type { PathSegment } from './json-path.js';
import { charCost, isHigh, isHighCode, isLow, JsonSizes, stringSize } from './json-size.js';
import { MARKER_KEY, Markers, tokensOf } from './markers.js';
import { dropLargest, waterFill } from './budget-shares.js';

/** Where the value being cut sits, and which part of it to show. */
export interface CutOptions {
  /** The id the markers point to; without one they say the rest was not kept. */
  readonly observationId?: string;
  /** The path of the value inside the kept result, for the markers' pointers. */
  readonly path?: readonly PathSegment[];
  /** Show from this item, key or character on (a page). */
  readonly offset?: number;
  /** Show at most this many items, keys or characters. */
  readonly limit?: number;
  /** Sizes already measured of this value (and of anything that shares its subtrees). */
  readonly sizes?: JsonSizes;
  /** A string read for itself: base64 is paged as text, not described as a blob again. */
  readonly blobAsText?: boolean;
}

/** A value cut to its budget. */
export interface CutResult {
  readonly value: JsonValue;
  /** False when `value` is the input itself, whole. */
  readonly cut: boolean;
  /**
   * Items, keys or characters of the value itself that are shown (whole or cut); 0 when only a
   * marker for all of it fits, `Infinity` when it is whole or never shown as text (a blob).
   */
  readonly shown: number;
}

// A cut value keeps at least this many bytes of its own beside its marker, or it is dropped
// for a marker alone (largest first), so that what is shown is worth its marker.
const MIN_VISIBLE_BYTES = 64;

// An array prefers whole items to many cut ones: each kept item is promised up to this share
// of the budget (and never less than MIN_ITEM_BYTES), and never less than it needs to show
// something of its own beside its marker.
const ARRAY_SHARE = 1 / 8;
const MIN_ITEM_BYTES = 256;

/**
 * Cuts `value` so that its JSON takes at most `maxBytes` UTF-8 bytes, keeping its shape: the
 * tail of an array gives way to a `{"…": "N more items", "read_result": {…}}` item, the
 * largest values of an object are cut or dropped first (a dropped one becomes a marker of its own
 * type), a string keeps its head and ends in ` … [N more chars; read_result …]`, and base64 is
 * described, never cut. The result always parses. With `offset`/`limit` it shows one page of an
 * array, object or string. Within budget, `value` itself is returned.
 */
export function cutToBudget(
  value: JsonValue,
  maxBytes: number,
  options: CutOptions = {},
): CutResult {
  const asText = options.blobAsText === true && typeof value === 'string';
  const markers = new Markers(options.observationId);
  const cutter = new Cutter(markers, options.sizes ?? new JsonSizes(), asText);
  const path = options.path ?? [];
  const start = options.offset ?? 0;
  const paged = start > 0 || options.limit !== undefined || asText;
  let out =
    paged && value !== null && typeof value === 'object'
      ? cutter.page(value, maxBytes, path, start, options.limit)
      : paged && typeof value === 'string'
        ? cutter.fitString(value, maxBytes, path, start, end(value.length, start, options.limit))
        : cutter.fit(value, maxBytes, path);
  if (cutter.size(out) > maxBytes) {
    out = cutter.drop(value, path);
    cutter.shown = 0;
  }
  return { value: out, cut: cutter.cut, shown: cutter.shown };
}

function end(length: number, start: number, limit: number | undefined): number {
  return limit === undefined ? length : Math.min(length, start + limit);
}

class Cutter {
  cut = false;
  // Set by each step on its way out, so after the outermost one it describes the value itself.
  shown = Infinity;

  constructor(
    readonly markers: Markers,
    readonly sizes: JsonSizes,
    readonly blobAsText = false,
  ) {}

  /** UTF-8 bytes of `value` as JSON. */
  size(value: JsonValue): number {
    return this.sizes.of(value);
  }

  fit(value: JsonValue, budget: number, path: readonly PathSegment[]): JsonValue {
    if (this.size(value) <= budget) {
      this.shown = Infinity;
      return value;
    }
    if (typeof value === 'string') return this.fitString(value, budget, path, 0, value.length);
    if (value === null || typeof value !== 'object') return value; // its floor is its size
    return this.page(value, budget, path, 0, undefined);
  }

  page(
    value: JsonValue[] | JsonObject,
    budget: number,
    path: readonly PathSegment[],
    start: number,
    limit: number | undefined,
  ): JsonValue {
    return Array.isArray(value)
      ? this.#fitArray(value, budget, path, start, end(value.length, start, limit))
      : this.#fitObject(value, budget, path, start, limit);
  }

  /** The smallest form of `value`: itself when short, else its marker. */
  floor(value: JsonValue, path: readonly PathSegment[]): number {
    const size = this.size(value);
    if (value === null || typeof value !== 'object') {
      if (typeof value !== 'string' || size <= 48) return size;
    }
    return Math.min(size, this.size(this.#dropped(value, path)));
  }

  /** `value` replaced by its marker alone. */
  drop(value: JsonValue, path: readonly PathSegment[]): JsonValue {
    this.cut = true;
    return this.#dropped(value, path);
  }

  #dropped(value: JsonValue, path: readonly PathSegment[]): JsonValue {
    if (typeof value === 'string') {
      const blob = describeBlob(value);
      return blob === undefined
        ? this.markers.stringTail(value.length, path, 0).trimStart()
        : this.markers.blob(blob, path);
    }
    if (Array.isArray(value)) return [this.#arrayTail(value.length, this.size(value), path, 0)];
    if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value).length;
      return this.markers.object(`${keys} more keys (${tokens(this.size(value))})`, path);
    }
    return value;
  }

  #arrayTail(count: number, bytes: number, path: readonly PathSegment[], offset: number) {
    return this.markers.object(`${count} more items (${tokens(bytes)})`, path, offset);
  }

  /** The head of `value.slice(start, stop)` that fits, then what was cut and where it is. */
  fitString(
    value: string,
    budget: number,
    path: readonly PathSegment[],
    start: number,
    stop: number,
  ): JsonValue {
    this.shown = Infinity; // whole, or a blob: never shown as text
    if (start === 0 && stop === value.length) {
      if (stringSize(value) <= budget) return value;
      if (!this.blobAsText && describeBlob(value) !== undefined) return this.drop(value, path);
    }
    // Never start or end between the halves of a surrogate pair.
    if (start > 0 && start < value.length && isLow(value, start) && isHigh(value, start - 1)) {
      start -= 1;
    }
    if (stop < value.length && stop > 0 && isHigh(value, stop - 1) && isLow(value, stop)) {
      stop += 1;
    }
    if (start > 0 && stop === value.length && stringSize(value.slice(start)) <= budget) {
      return value.slice(start);
    }
    const tail = (kept: number) =>
      kept < value.length ? this.markers.stringTail(value.length - kept, path, kept) : '';
    // Room for the longest tail it could need: the most characters left, the largest offset.
    const reserve =
      stringSize(this.markers.stringTail(value.length - start, path, Math.max(stop, 1))) - 2;
    const room = budget - 2 - reserve;
    let used = 0;
    let index = start;
    while (index < stop) {
      const code = value.charCodeAt(index);
      const pair = isHighCode(code) && index + 1 < value.length && isLow(value, index + 1);
      const cost = pair ? 4 : charCost(code);
      if (used + cost > room) break;
      used += cost;
      index += pair ? 2 : 1;
    }
    if (index < value.length) this.cut = true;
    this.shown = index - start;
    return value.slice(start, index) + tail(index);
  }

  #fitArray(
    value: JsonValue[],
    budget: number,
    path: readonly PathSegment[],
    start: number,
    stop: number,
  ): JsonValue {
    if (start === 0 && stop === value.length && this.size(value) <= budget) {
      this.shown = Infinity;
      return value;
    }
    // Bytes before the window, so that each tail marker can say how much it stands for.
    let before = 0;
    for (let i = 0; i < start; i++) before += this.size(value[i] as JsonValue) + 1;
    const total = this.size(value as JsonValue[]) - 2;
    const tailAt = (kept: number, keptBytes: number) =>
      start + kept < value.length
        ? this.#arrayTail(
            value.length - start - kept,
            Math.max(0, total - before - keptBytes),
            path,
            start + kept,
          )
        : undefined;
    const share = Math.max(MIN_ITEM_BYTES, Math.floor(budget * ARRAY_SHARE));
    const sizes: number[] = [];
    const floors: number[] = [];
    let needed = 0;
    let keptBytes = 0;
    for (let i = start; i < stop; i++) {
      const item = value[i] as JsonValue;
      const size = this.size(item);
      const floor = this.floor(item, [...path, i]);
      const need = Math.min(size, Math.max(floor + MIN_VISIBLE_BYTES, share));
      const tail = tailAt(sizes.length + 1, keptBytes + size + 1);
      const commas = sizes.length + (tail === undefined ? 0 : 1);
      if (2 + commas + needed + need + (tail === undefined ? 0 : this.size(tail)) > budget) break;
      sizes.push(size);
      floors.push(floor);
      needed += need;
      keptBytes += size + 1;
    }
    const tail = tailAt(sizes.length, keptBytes);
    const commas =
      Math.max(0, sizes.length - 1) + (tail === undefined || sizes.length === 0 ? 0 : 1);
    const room = budget - 2 - commas - (tail === undefined ? 0 : this.size(tail));
    const shares = waterFill(sizes, floors, room);
    const out = sizes.map((size, k) => {
      const item = value[start + k] as JsonValue;
      return (shares[k] as number) >= size
        ? item
        : this.fit(item, shares[k] as number, [...path, start + k]);
    });
    if (tail !== undefined) {
      this.cut = true;
      out.push(tail);
    }
    this.shown = sizes.length;
    return out;
  }

  #fitObject(
    value: JsonObject,
    budget: number,
    path: readonly PathSegment[],
    start: number,
    limit: number | undefined,
  ): JsonValue {
    const keys = Object.keys(value);
    const stop = end(keys.length, start, limit);
    if (start === 0 && stop === keys.length && this.size(value) <= budget) {
      this.shown = Infinity;
      return value;
    }
    let tailKey = MARKER_KEY;
    while (Object.hasOwn(value, tailKey)) tailKey += MARKER_KEY;
    const tailKeySize = stringSize(tailKey) + 1;
    let before = 0;
    for (let i = 0; i < start; i++) {
      before +=
        stringSize(keys[i] as string) + 2 + this.size(value[keys[i] as string] as JsonValue);
    }
    const total = this.size(value) - 2;
    const tailAt = (kept: number, keptBytes: number) =>
      start + kept < keys.length
        ? this.markers.object(
            `${keys.length - start - kept} more keys (${tokens(Math.max(0, total - before - keptBytes))})`,
            path,
            start + kept,
          )
        : undefined;
    const sizes: number[] = [];
    const floors: number[] = [];
    let fixed = 2; // braces, keys, colons and commas
    let floorSum = 0;
    let keptBytes = 0;
    for (let i = start; i < stop; i++) {
      const key = keys[i] as string;
      const item = value[key] as JsonValue;
      const size = this.size(item);
      const floor = this.floor(item, [...path, key]);
      const keyBytes = stringSize(key) + 1 + (sizes.length > 0 ? 1 : 0);
      const tail = tailAt(sizes.length + 1, keptBytes + keyBytes + size);
      const tailBytes = tail === undefined ? 0 : tailKeySize + 1 + this.size(tail);
      if (fixed + keyBytes + floorSum + floor + tailBytes > budget) break;
      sizes.push(size);
      floors.push(floor);
      floorSum += floor;
      fixed += keyBytes;
      keptBytes += keyBytes + size;
    }
    const tail = tailAt(sizes.length, keptBytes);
    if (sizes.length === 0) {
      // Nothing fits beside the marker: the marker stands for the whole object (or page).
      this.cut = true;
      this.shown = 0;
      return tail ?? {};
    }
    const room = budget - fixed - (tail === undefined ? 0 : tailKeySize + 1 + this.size(tail));
    const shares = dropLargest(sizes, floors, room, MIN_VISIBLE_BYTES);
    const out: JsonObject = {};
    sizes.forEach((size, k) => {
      const key = keys[start + k] as string;
      const item = value[key] as JsonValue;
      const share = shares[k] as number;
      const kept = share >= size ? item : this.fit(item, share, [...path, key]);
      Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true });
    });
    if (tail !== undefined) {
      this.cut = true;
      Object.defineProperty(out, tailKey, { value: tail, enumerable: true, writable: true });
    }
    this.shown = sizes.length;
    return out;
  }
}

function tokens(bytes: number): string {
  return tokensOf(bytes, BYTES_PER_TOKEN);
}

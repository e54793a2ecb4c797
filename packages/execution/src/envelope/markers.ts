import type { JsonObject } from '@mcp-agent/core';
import { formatJsonPath, type PathSegment } from './json-path.js';

/**
 * The key of every cut marker. A marker replaces what was cut (an array's tail, a dropped value,
 * an object's remaining keys under a key of their own), so it never stands beside real keys
 * under a name that could be theirs.
 */
export const MARKER_KEY = '…';

/** The arguments of a `read_result` call that returns what a marker stands for. */
export interface ReadResultPointer {
  /** The kept result's id. */
  readonly id: string;
  /** Where the cut value is inside the kept result; absent for the root. */
  readonly path?: string;
  /** The first item (array), key (object) or character (string) not shown; absent for 0. */
  readonly offset?: number;
}

/** `{"…": "12 more items (~900 tokens)", "read_result": {"id", "path", "offset"}}`. */
export interface CutMarker {
  /** What was cut, in words: how many items and about how many tokens. */
  readonly [MARKER_KEY]: string;
  /** How to read the rest; absent when the result was not kept. */
  readonly read_result?: ReadResultPointer;
}

/** Builds the markers of one kept observation (or of a result that was not kept: `id` absent). */
export class Markers {
  constructor(readonly observationId: string | undefined) {}

  /** The pointer to `path` from `offset`, or `undefined` when nothing was kept. */
  pointer(path: readonly PathSegment[], offset = 0): (ReadResultPointer & JsonObject) | undefined {
    if (this.observationId === undefined) return undefined;
    const pointer: ReadResultPointer & JsonObject = { id: this.observationId };
    const formatted = formatJsonPath(path);
    if (formatted !== '') Object.assign(pointer, { path: formatted });
    if (offset > 0) Object.assign(pointer, { offset });
    return pointer;
  }

  /** A marker object saying what was cut at `path` from `offset`. */
  object(what: string, path: readonly PathSegment[], offset = 0): CutMarker & JsonObject {
    const pointer = this.pointer(path, offset);
    return pointer === undefined
      ? { [MARKER_KEY]: `${what}, not kept` }
      : { [MARKER_KEY]: what, read_result: pointer };
  }

  /** The text that ends a cut string: ` … [N more chars; read_result id=… offset=… path=…]`. */
  stringTail(count: number, path: readonly PathSegment[], offset: number): string {
    return ` … [${count} more chars${this.#reference(path, offset)}]`;
  }

  /** What replaces a base64 blob or data URL: its kind and size and where it is kept. */
  blob(description: string, path: readonly PathSegment[]): string {
    return `[${description}${this.#reference(path, 0)}]`;
  }

  // The path goes last: a bracketed key may hold spaces and brackets.
  #reference(path: readonly PathSegment[], offset: number): string {
    const pointer = this.pointer(path, offset);
    if (pointer === undefined) return ', not kept';
    const at = pointer.offset === undefined ? '' : ` offset=${pointer.offset}`;
    const where = pointer.path === undefined ? '' : ` path=${pointer.path}`;
    return `; read_result id=${pointer.id}${at}${where}`;
  }
}

/** Sizes in tokens as the markers print them. */
export function tokensOf(bytes: number, bytesPerToken: number): string {
  return `~${Math.max(1, Math.ceil(bytes / bytesPerToken))} tokens`;
}

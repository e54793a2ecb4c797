/** What is known of a line that was too long: its size, and its JSON-RPC id when it shows. */
export interface OversizedLine {
  readonly bytes: number;
  readonly id: string | number | null;
}

// How much of each end of a dropped line is kept, to find its JSON-RPC id.
const EDGE_BYTES = 256;
const ID = String.raw`"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*${ID}`);
const ID_AT_END = new RegExp(String.raw`${ID}\s*\}\s*$`);
const NEWLINE = 0x0a;

/**
 * Splits newline-delimited messages into whole lines (UTF-8, without the newline) and drops any
 * line past `maxBytes` without holding it: only its first and last few hundred bytes are kept,
 * to name its id (an SDK client puts `"jsonrpc":"2.0","id":…` last). A plain class, not a
 * stream: a chunk that is one whole line (what a client writes per message) becomes its line
 * with one decode and no copy, on the same tick.
 */
export class LineLimit {
  #line: Buffer[] = [];
  #length = 0;
  #dropping = false;
  #head = Buffer.alloc(0);
  #tail = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (line: OversizedLine) => void,
  ) {}

  /** Reads one chunk: each line it ends goes to `onLine` (or `onOversized`), in order. */
  write(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) break;
      if (this.#length === 0 && !this.#dropping && newline - start <= this.maxBytes) {
        // The whole line is in this chunk: decoded in place.
        if (newline > start) this.onLine(chunk.toString('utf8', start, newline));
      } else {
        this.#add(chunk.subarray(start, newline));
        this.#endLine();
      }
      start = newline + 1;
    }
    if (start < chunk.length) this.#add(chunk.subarray(start));
  }

  /** The input ended: a last line without its newline was cut off, and is never read. */
  end(): void {
    if (this.#dropping) this.#endLine();
    this.#line = [];
    this.#length = 0;
  }

  #add(part: Buffer): void {
    this.#length += part.length;
    if (!this.#dropping && this.#length <= this.maxBytes) {
      // Held by reference: the chunk is the stream's, never reused.
      this.#line.push(part);
      return;
    }
    if (!this.#dropping) {
      this.#dropping = true;
      const held = Buffer.concat([...this.#line, part]);
      this.#line = [];
      this.#head = Buffer.from(held.subarray(0, EDGE_BYTES));
      this.#tail = Buffer.from(held.subarray(-EDGE_BYTES));
      return;
    }
    this.#tail = Buffer.from(Buffer.concat([this.#tail, part]).subarray(-EDGE_BYTES));
  }

  #endLine(): void {
    if (this.#dropping) {
      this.onOversized({ bytes: this.#length, id: findId(this.#head, this.#tail) });
    } else if (this.#length > 0) {
      this.onLine(Buffer.concat(this.#line, this.#length).toString('utf8'));
    }
    this.#line = [];
    this.#length = 0;
    this.#dropping = false;
  }
}

function findId(head: Buffer, tail: Buffer): string | number | null {
  const match = ID_AT_START.exec(head.toString('utf8')) ?? ID_AT_END.exec(tail.toString('utf8'));
  if (match?.[1] === undefined) return null;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return null;
  }
}

import { Transform, type TransformCallback } from 'node:stream';

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

/**
 * Passes newline-delimited messages through whole, one line per chunk, and drops any line past
 * `maxBytes` without holding it: only its first and last few hundred bytes are kept, to name
 * its id (an SDK client puts `"jsonrpc":"2.0","id":…` last). `onOversized` is told of each.
 */
export class LineLimit extends Transform {
  #line: Buffer[] = [];
  #length = 0;
  #dropping = false;
  #head = Buffer.alloc(0);
  #tail = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    private readonly onOversized: (line: OversizedLine) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let rest = chunk;
    for (;;) {
      const newline = rest.indexOf(0x0a);
      const part = newline === -1 ? rest : rest.subarray(0, newline);
      this.#add(part);
      if (newline === -1) break;
      this.#endLine();
      rest = rest.subarray(newline + 1);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without its newline is incomplete: a message was cut off, never read.
    if (this.#dropping) this.#endLine();
    done();
  }

  #add(part: Buffer): void {
    this.#length += part.length;
    if (!this.#dropping && this.#length <= this.maxBytes) {
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
      this.push(Buffer.concat([...this.#line, Buffer.from('\n')]));
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

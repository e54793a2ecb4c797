/**
 * Splits a byte stream into lines without copying what it has not yet seen a newline for: the
 * chunks wait in a list and are joined once, when their line ends. A line growing past
 * `maxLineBytes` throws and is dropped, so a server that never sends a newline costs at most
 * that much memory (the SDK's ReadBuffer re-concatenates on every chunk, which churns far more).
 */
export class LineBuffer {
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** Appends `chunk` and returns the complete lines it finished, as UTF-8 without the newline. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const tail = chunk.subarray(start, newline);
      this.#check(tail.length);
      const line = this.#chunks.length === 0 ? tail : Buffer.concat([...this.#chunks, tail]);
      lines.push(line.toString('utf8').replace(/\r$/, ''));
      this.clear();
      start = newline + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.#check(rest.length);
      this.#chunks.push(rest);
      this.#size += rest.length;
    }
    return lines;
  }

  clear(): void {
    this.#chunks = [];
    this.#size = 0;
  }

  #check(adding: number): void {
    if (this.#size + adding > this.maxLineBytes) {
      this.clear();
      throw new Error(`a line exceeded ${this.maxLineBytes} bytes without a newline`);
    }
  }
}

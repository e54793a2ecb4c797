import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseJsonRpcLine } from '../shared/json-rpc-line.js';
import { LineLimit, type OversizedLine } from './line-limit.js';
import { countWire } from '../wire-activity.js';

/**
 * The MCP server side of stdio: one JSON-RPC message per line in, one per line out. It does
 * what the SDK's `StdioServerTransport` does, with the line limit built in and without its
 * per-message copies: a chunk is split where it arrived (no stream in between, no buffer joined
 * per chunk), and a line is parsed once (see `parseJsonRpcLine`). Each message out is one write.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #lines: LineLimit;
  #started = false;
  #closed = false;

  constructor(options: {
    readonly stdin: NodeJS.ReadableStream;
    readonly stdout: NodeJS.WritableStream;
    /** A line past this is not read: `onOversized` is told instead. */
    readonly maxMessageBytes: number;
    readonly onOversized: (line: OversizedLine) => void;
  }) {
    this.#stdin = options.stdin;
    this.#stdout = options.stdout;
    this.#lines = new LineLimit(options.maxMessageBytes, this.#onLine, options.onOversized);
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioLineTransport already started');
    this.#started = true;
    countWire('stdioLineTransports');
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('error', this.#onError);
    // Paused only when nothing else reads it, as the SDK's transport does.
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#lines.end();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    this.#lines.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  readonly #onEnd = (): void => {
    this.#lines.end();
    void this.close();
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onLine = (line: string): void => {
    let message: JSONRPCMessage;
    try {
      message = parseJsonRpcLine(line);
    } catch (error) {
      // As the SDK's transport does: reported, and the next line is read.
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  };
}

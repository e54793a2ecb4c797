import { spawn, type ChildProcess } from 'node:child_process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseJsonRpcLine } from '../shared/json-rpc-line.js';
import { LineBuffer } from './line-buffer.js';
import { countWire } from '../wire-activity.js';

/** Options of {@link ProcessTransport}. */
export interface ProcessTransportOptions {
  /** The program, found on `PATH` when not a path; run without a shell. */
  readonly command: string;
  /** Its arguments, passed as they are (no shell quoting or expansion). */
  readonly args: readonly string[];
  /**
   * The child's whole environment, built by the caller: nothing of this process's own
   * environment reaches the child unless it is here (the transport never reads `process.env`;
   * a host that wants the SDK's safe defaults, HOME, PATH…, puts them in).
   */
  readonly env: Readonly<Record<string, string>>;
  /** The child's working folder; default this process's. */
  readonly cwd?: string;
  /** Largest stdout line kept while waiting for its newline; default 10 MiB. */
  readonly maxLineBytes?: number;
  /** Stderr kept for diagnostics (the tail); default 8 KiB. */
  readonly stderrTailBytes?: number;
  /** Grace before SIGTERM, then before SIGKILL, on close; default 2,000 ms each. */
  readonly closeGraceMs?: number;
}

/** How the child ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  /** The exit code; `null` when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it (`SIGTERM` from `close()`…); `null` when it exited. */
  readonly signal: NodeJS.Signals | null;
}

// Process groups of children still running, killed when this process exits however it exits
// (process.exit, an uncaught error), so no server outlives its host. The listener is there only
// while a child runs.
const running = new Set<number>();
const killRunning = () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
};

function track(pid: number): void {
  if (running.size === 0) process.on('exit', killRunning);
  running.add(pid);
}

function untrack(pid: number): void {
  if (running.delete(pid) && running.size === 0) process.off('exit', killRunning);
}

/**
 * MCP over a child's stdin/stdout, like the SDK's StdioClientTransport, plus what a shared
 * host needs: the child leads its own process group, so `close()` also ends grandchildren a
 * wrapper (npx, uvx, sh) forked; only the environment the caller gives reaches it; stderr is drained into a bounded tail instead of the host's own stderr; a line without
 * a newline cannot grow past `maxLineBytes`; no shell is ever involved.
 *
 * @example
 * ```ts
 * const transport = new ProcessTransport({
 *   command: 'npx',
 *   args: ['-y', '@modelcontextprotocol/server-memory'],
 *   env: { ...getDefaultEnvironment(), HTTPS_PROXY: proxy }, // the child's whole environment
 * });
 * await client.connect(transport); // an SDK `Client`; `client.close()` ends the process group
 * ```
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: ProcessTransportOptions;
  readonly #buffer: LineBuffer;
  #child: ChildProcess | undefined;
  #stderrTail = '';
  #closed = false;
  #exit: ProcessExit | undefined;

  constructor(options: ProcessTransportOptions) {
    this.#options = options;
    this.#buffer = new LineBuffer(options.maxLineBytes ?? 10 * 1024 * 1024);
  }

  /** The child's pid (also its process group id), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The last few KiB the server wrote to stderr. */
  get stderrTail(): string {
    return this.#stderrTail;
  }

  /** How the child ended, once it has; `undefined` while it runs (or before it started). */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /**
   * Spawns the child; resolves once it runs. Rejects with the spawn error (`ENOENT` when the
   * command is not found), or when started twice.
   */
  async start(): Promise<void> {
    if (this.#child !== undefined) throw new Error('ProcessTransport already started');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(this.#options.command, [...this.#options.args], {
        env: { ...this.#options.env },
        cwd: this.#options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        detached: true,
        windowsHide: true,
      });
      this.#child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        countWire('processTransports');
        if (child.pid !== undefined) track(child.pid);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
      });
      child.once('close', (code, signal) => {
        this.#exit ??= { code, signal };
        // Grandchildren may outlive a wrapper that exited on its own.
        this.#killGroup('SIGKILL');
        if (child.pid !== undefined) untrack(child.pid);
        this.#child = undefined;
        if (!this.#closed) {
          this.#closed = true;
          this.onclose?.();
        }
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        let lines: string[];
        try {
          lines = this.#buffer.push(chunk);
        } catch (error) {
          // An endless line: the stream is unusable, say why and close.
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        for (const line of lines) {
          if (line.trim() === '') continue;
          try {
            this.onmessage?.(parseJsonRpcLine(line));
          } catch (error) {
            // A garbage line: report it and keep reading the next one.
            this.onerror?.(error as Error);
          }
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        const limit = this.#options.stderrTailBytes ?? 8 * 1024;
        this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-limit);
      });
    });
  }

  /** Writes one message as a line, awaiting `drain` when the pipe is full; rejects once closed. */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.#child?.stdin;
      if (stdin === undefined || stdin === null || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** stdin EOF, then SIGTERM, then SIGKILL, to the whole process group. */
  async close(): Promise<void> {
    const child = this.#child;
    this.#buffer.clear();
    if (child === undefined) return;
    const grace = this.#options.closeGraceMs ?? 2_000;
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const wait = (ms: number) =>
      Promise.race([exited, new Promise<void>((r) => setTimeout(r, ms).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // Already gone.
    }
    await wait(grace);
    if (child.exitCode === null && child.signalCode === null) {
      this.#killGroup('SIGTERM');
      await wait(grace);
    }
    this.#killGroup('SIGKILL');
    await wait(grace);
  }

  #killGroup(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  }
}

import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { instruments } from '@mcp-agent/core';
import type { HostMessage, WorkerMessage } from './sandbox-protocol.js';
import { workerEnvironment } from './worker-environment.js';

/** One supervised worker process. */
export interface SandboxWorker {
  readonly process: ChildProcess;
  /** Settles when the worker has loaded isolated-vm, or failed to. */
  readonly ready: Promise<void>;
  /** The run the worker is executing, until it reports that run done (or dies). */
  runId: number | undefined;
  runs: number;
  dead: boolean;
  /** Why the pool replaces it, once it decided to (counted when it exits). */
  replacedFor?: 'max_runs' | 'unsound' | 'memory';
}

/** Options of {@link SandboxWorkerPool}. */
export interface SandboxWorkerPoolOptions {
  readonly size: number;
  /** A worker whose resident memory passes this is killed and replaced. */
  readonly rssCapMb: number;
  /** After a deadline the pool waits this long for the worker, then kills it. */
  readonly killGraceMs: number;
  /** A worker is replaced after this many runs, which bounds allocator growth. */
  readonly maxRunsPerWorker: number;
  /** How much nicer than the host the workers run (0 to 19; higher yields the CPU first). */
  readonly niceness: number;
  /** Every message of a worker other than its start-up ones. */
  readonly onMessage: (worker: SandboxWorker, message: WorkerMessage) => void;
  /** A worker died (crash, kill or retirement); `reason` is its signal or exit code. */
  readonly onExit: (worker: SandboxWorker, reason: string) => void;
  /** A worker passed its memory cap; it is killed right after. */
  readonly onOverMemory: (worker: SandboxWorker) => void;
}

/**
 * The worker processes that host the isolates (never the host process): forked with
 * --no-node-snapshot and a minimal environment, handed out one run at a time, watched for
 * memory, retired after a number of runs or when one reports itself unsound, and replaced at
 * once when one dies, so a crash never leaves the pool short.
 */
export class SandboxWorkerPool {
  readonly #options: SandboxWorkerPoolOptions;
  readonly #workers: SandboxWorker[] = [];
  readonly #queue: (() => void)[] = [];
  readonly #monitor: NodeJS.Timeout;
  #disposed = false;

  constructor(options: SandboxWorkerPoolOptions) {
    this.#options = options;
    for (let i = 0; i < options.size; i++) this.#workers.push(this.#spawn());
    this.#monitor = setInterval(() => this.#checkMemory(), 200);
    this.#monitor.unref();
  }

  /** The pids of the live workers. */
  get pids(): number[] {
    return this.#workers.filter((w) => !w.dead).map((w) => w.process.pid as number);
  }

  /** A free worker, marked busy with `runId`; waits for one when all are busy. */
  async acquire(runId: number): Promise<SandboxWorker> {
    for (;;) {
      const free = this.#workers.find((w) => w.runId === undefined && !w.dead);
      if (free !== undefined) {
        free.runId = runId;
        return free;
      }
      await new Promise<void>((resolve) => this.#queue.push(resolve));
    }
  }

  /**
   * The worker finished `runId` (late or stale reports are ignored). `retire` replaces it now,
   * as reaching `maxRunsPerWorker` does: no further run goes to it.
   */
  release(worker: SandboxWorker, runId: number, { retire = false } = {}): void {
    if (worker.runId !== runId) return;
    worker.runId = undefined;
    worker.runs += 1;
    if (retire || worker.runs >= this.#options.maxRunsPerWorker) {
      // Retired: no new run goes to it, and its exit spawns the replacement.
      worker.replacedFor = retire ? 'unsound' : 'max_runs';
      worker.dead = true;
      worker.process.kill('SIGTERM');
      return;
    }
    this.#queue.shift()?.();
  }

  send(worker: SandboxWorker, message: HostMessage): void {
    if (!worker.dead && worker.process.connected) worker.process.send(message);
  }

  /** Kills the worker unless it reports its current run done within the grace. */
  killAfterGrace(worker: SandboxWorker): void {
    // The worker disposes the isolate at the deadline itself; one stuck in uninterruptible V8
    // code (Array(1e9).fill) never reports back, and is killed and replaced.
    const runId = worker.runId;
    const timer = setTimeout(() => {
      if (!worker.dead && worker.runId === runId) worker.process.kill('SIGKILL');
    }, this.#options.killGraceMs);
    timer.unref();
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    clearInterval(this.#monitor);
    await Promise.all(this.#workers.map((worker) => kill(worker)));
  }

  #spawn(): SandboxWorker {
    const child = fork(workerPath(), [], {
      execArgv: ['--no-node-snapshot', '--disable-warning=ExperimentalWarning'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
      env: workerEnvironment(),
    });
    // A busy loop waits for its deadline in a worker; at a lower priority it takes only the CPU
    // the host and other tenants leave (LOAD-06). Refused (no permission) it runs as the host.
    if (child.pid !== undefined && this.#options.niceness > 0) {
      try {
        setPriority(child.pid, Math.min(19, getPriority() + this.#options.niceness));
      } catch {
        // the host's own priority, then
      }
    }
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    let markReady: () => void = () => undefined;
    let markFailed: (error: Error) => void = () => undefined;
    const worker: SandboxWorker = {
      process: child,
      runId: undefined,
      runs: 0,
      dead: false,
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        markFailed = reject;
      }),
    };
    worker.ready.catch(() => undefined);
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') markReady();
      else if (message.type === 'fatal') markFailed(new Error(message.message));
      else this.#options.onMessage(worker, message);
    });
    child.on('exit', (code, signal) => {
      worker.dead = true;
      worker.runId = undefined;
      const reason = String(signal ?? code);
      markFailed(new Error(`sandbox worker exited (${reason}) ${stderr.slice(-500)}`));
      this.#options.onExit(worker, reason);
      const index = this.#workers.indexOf(worker);
      if (index >= 0 && !this.#disposed) {
        // Killed by a deadline or a crash, unless the pool retired it for a reason of its own.
        instruments().sandboxWorkerRecycles.add(1, { reason: worker.replacedFor ?? 'exited' });
        this.#workers[index] = this.#spawn();
        this.#queue.shift()?.();
      }
    });
    return worker;
  }

  #checkMemory(): void {
    for (const worker of this.#workers) {
      const pid = worker.process.pid;
      if (worker.dead || pid === undefined) continue;
      const rssMb = readRssMb(pid);
      if (rssMb !== undefined && rssMb > this.#options.rssCapMb) {
        worker.replacedFor = 'memory';
        this.#options.onOverMemory(worker);
        worker.process.kill('SIGKILL');
      }
    }
  }
}

async function kill(worker: SandboxWorker): Promise<void> {
  if (worker.dead) return;
  const exited = new Promise<void>((resolve) => worker.process.once('exit', () => resolve()));
  worker.process.kill('SIGKILL');
  await exited;
}

function workerPath(): string {
  // From dist the worker is JavaScript; from source (tests) Node strips its types itself.
  const js = fileURLToPath(new URL('./sandbox-worker.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./sandbox-worker.ts', import.meta.url));
}

function readRssMb(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4_096) / (1024 * 1024);
  } catch {
    return undefined;
  }
}

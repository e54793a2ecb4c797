import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { sqliteLockHolder } from './server-fixtures.js';

/** Another process holding a SQLite file's write lock (see `sqliteLockHolder`). */
export interface HeldLock {
  /** Resolves once the other process has committed and exited. */
  readonly released: Promise<void>;
  /** Kills the other process now (cleanup after a failed test). */
  kill(): void;
}

/**
 * Starts another process that takes the write lock of `file` and holds it for `holdMs`;
 * resolves once the lock is held.
 */
export async function holdSqliteLock(file: string, holdMs: number): Promise<HeldLock> {
  const child = spawn(process.execPath, [sqliteLockHolder, file, String(holdMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout });
  const locked = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'locked') resolve();
    });
    void exited.then(([code]) => reject(new Error(`the lock holder exited early (${code})`)));
  });
  await locked;
  return {
    released: exited.then(() => undefined),
    kill: () => child.kill('SIGKILL'),
  };
}

/**
 * Watches this process's event loop with a 10 ms interval timer; `stop()` returns the longest
 * stall seen, in ms: the most any tick came late, or the time since the last tick if that is
 * more (a stall still going on, or one no tick followed).
 */
export function watchEventLoop(): { stop(): number } {
  const intervalMs = 10;
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - intervalMs);
    last = now;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last - intervalMs);
    },
  };
}

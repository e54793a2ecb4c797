import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { treeCpuNs } from './process-cpu.js';

describe('treeCpuNs', () => {
  it("counts a process's own threads and the processes under it, and nothing once it is gone", async () => {
    // Burns about 300 ms of CPU, says so, then waits to be killed.
    const child = spawn(
      process.execPath,
      [
        '-e',
        'const t = Date.now(); while (Date.now() - t < 300); console.log("done"); setInterval(() => {}, 1000);',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await once(child.stdout, 'data');
      const own = treeCpuNs(child.pid as number) as number;
      // A loaded machine gives the loop less than its 300 ms of wall time on a CPU, never more.
      expect(own).toBeGreaterThan(100e6);
      expect(treeCpuNs(process.pid)).toBeGreaterThan(own);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    expect(treeCpuNs(child.pid as number)).toBeUndefined();
  });
});

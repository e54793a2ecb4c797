import { readdirSync, readFileSync } from 'node:fs';

/**
 * The CPU time a process and every process under it have run so far, in nanoseconds: the sum of
 * each thread's time on a CPU (`/proc/<pid>/task/<tid>/schedstat`, exact where the kernel's
 * tick-sampled user and system times are not). `undefined` where `/proc` has no such figures
 * (not Linux) or the process is gone. A process that exits between two reads takes its time
 * with it: read around a run in which the tree does not change.
 */
export function treeCpuNs(root: number): number | undefined {
  let total = 0;
  const pending = [root];
  try {
    for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' '))
          if (child.trim() !== '') pending.push(Number(child));
      }
    }
  } catch {
    return undefined;
  }
  return Number.isFinite(total) ? total : undefined;
}

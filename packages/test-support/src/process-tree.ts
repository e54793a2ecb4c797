// Processes below a process, read from /proc: what the stdio tests and `pnpm bench served`
// count to show that nothing is left behind.
import { readdirSync, readFileSync } from 'node:fs';

/** Every process below `pid`, children first. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all: number[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      all.push(child);
      walk(child);
    }
  };
  walk(pid);
  return all;
}

/**
 * True when `pid` runs. A zombie (exited, not yet reaped: an orphan waits for PID 1, which in
 * some containers reaps late) counts as gone.
 */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The running (not zombie) children of `parent` whose command line holds every one of `parts`:
 * counted from /proc, not from whoever started them, so a process they forgot still counts.
 */
export function liveChildren(parent: number, ...parts: string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || Number(fields[1]) !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parts.every((part) => cmdline.includes(part))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

// Vitest's global setup: every temporary folder the tests make, and the processes they start
// (servers, the CLI, the browser), lands in one root made for the run and removed when it ends.
// A test should still remove what it makes; this is what keeps a run that forgets, or is cut
// short, from leaving anything behind in the machine's temporary directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  const root = mkdtempSync(join(tmpdir(), 'mcp-agent-tests-'));
  const before = process.env.TMPDIR;
  // Read by os.tmpdir() on every call, and inherited by the workers and what they spawn.
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}

#!/usr/bin/env node
// The `mcp-agent` binary. It loads the CLI only after Node.js passed mcp-agent's version check (run
// by @mcp-agent/core on import), so an older Node prints one line saying what to install instead of
// a stack trace.
try {
  await import('@mcp-agent/core');
} catch (thrown) {
  const reason = (thrown as { details?: { reason?: unknown } } | null)?.details?.reason;
  if (reason !== 'node_version') throw thrown;
  process.stderr.write(`${(thrown as Error).message}\n`);
  process.exit(1);
}
await import('./cli.js');

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  addNpmServer,
  addScripted,
  alice,
  dispatcher,
  expectError,
  serverCalls,
  stack,
  useDispatchStack,
} from './dispatch-test-helpers.js';

// Long calls against server-everything: its long-running operation sends one progress per step
// (duration / steps seconds apart), and its research query runs only as an MCP task. Timeouts
// keep a margin of three to one against the steps, so a loaded machine does not flip them.
useDispatchStack();

const LONG = 'everything.trigger-long-running-operation';

describe('long calls', () => {
  it('progress resets the per-call timeout, with or without a listener; a silent call fails with TIMEOUT', async () => {
    await addNpmServer(alice, 'everything', 'server-everything');
    const d = dispatcher();
    // 3 s in 6 steps of 0.5 s, under a 1.5 s timeout: each progress resets it.
    const quiet = await d.dispatchTool(
      alice,
      LONG,
      { duration: 3, steps: 6 },
      { timeoutMs: 1_500 },
    );
    expect(quiet, JSON.stringify(quiet)).toMatchObject({ ok: true });
    const seen: { progress: number; total?: number }[] = [];
    const heard = await d.dispatchTool(
      alice,
      LONG,
      { duration: 3, steps: 6 },
      { timeoutMs: 1_500, onProgress: (p) => seen.push(p) },
    );
    expect(heard.ok).toBe(true);
    expect(seen.map((p) => [p.progress, p.total])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 6]));
    // 3 s in one step: nothing for 3 s, past the 1.5 s timeout.
    const silent = await d.dispatchTool(
      alice,
      LONG,
      { duration: 3, steps: 1 },
      { timeoutMs: 1_500 },
    );
    expectError(silent, 'TIMEOUT');
  }, 60_000);

  it("a server's own timeoutMs applies to its calls, and progress resets it too", async () => {
    const entry = fileURLToPath(
      new URL(
        '../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
        import.meta.url,
      ),
    );
    await stack.registry.addServer(alice, {
      id: 'slow',
      transport: 'stdio',
      command: process.execPath,
      args: [entry],
      timeoutMs: 1_500,
    });
    await stack.pool.waitForReady(alice, ['slow']);
    const d = dispatcher();
    const silent = await d.dispatchTool(alice, 'slow.trigger-long-running-operation', {
      duration: 3,
      steps: 1,
    });
    expectError(silent, 'TIMEOUT');
    const steady = await d.dispatchTool(alice, 'slow.trigger-long-running-operation', {
      duration: 3,
      steps: 6,
    });
    expect(steady.ok, JSON.stringify(steady)).toBe(true);
  }, 60_000);

  it('a tool whose taskSupport is "required" runs as an MCP task; its statuses arrive as progress', async () => {
    await addNpmServer(alice, 'everything', 'server-everything');
    const d = dispatcher();
    const statuses: string[] = [];
    const response = await d.dispatchTool(
      alice,
      'everything.simulate-research-query',
      { topic: 'tide pools' },
      { onProgress: (p) => statuses.push(p.message ?? '') },
    );
    expect(response, JSON.stringify(response)).toMatchObject({ ok: true });
    expect(JSON.stringify(response.ok ? response.data : null)).toContain('tide pools');
    expect(statuses[0]).toMatch(/^working/);
    expect(statuses.some((s) => /Gathering sources/.test(s))).toBe(true);
  }, 60_000);

  it('a task-only tool of a server without task support is refused before any call, saying why', async () => {
    const d = dispatcher();
    await addScripted(alice, 'legacy', {
      tools: [
        {
          name: 'render',
          description: 'Render a report',
          inputSchema: { type: 'object' },
          execution: { taskSupport: 'required' },
        },
      ],
    });
    expectError(
      await d.dispatchTool(alice, 'legacy.render', {}),
      'TOOL_EXECUTION_FAILED',
      /legacy\.render runs only as an MCP task, but the server does not declare task support for tools\/call/,
    );
    expect(await serverCalls(alice, 'legacy')).toBe(0);
  }, 60_000);
});

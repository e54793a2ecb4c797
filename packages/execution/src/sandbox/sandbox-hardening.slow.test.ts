// The sandbox cases of issue 13 at the catalogue's full size: slow, so in the slow suite.
import { describe, expect, it } from 'vitest';
import { echoTools, sbx, stillWorks, useTestSandbox } from './sandbox-test-helpers.js';

useTestSandbox();

describe('K. the server process is out of reach of sandbox code (full size)', () => {
  it('SBX-32 a 30 MB tool argument, sent 40 times, is refused in the worker and never reaches the host', async () => {
    let hostCalls = 0;
    const options = {
      tools: echoTools,
      callTool: async () => {
        hostCalls += 1;
        return { ok: true as const, value: null };
      },
      limits: { memoryMb: 256, deadlineMs: 30_000 },
    };
    const before = process.memoryUsage().rss;
    const result = await sbx.sandbox.run(
      `const big = 'x'.repeat(30 * 1024 * 1024);
       const errors = [];
       for (let i = 0; i < 40; i++) {
         try { await tools.util.echo({ big }); } catch (error) { errors.push(error.name + ': ' + error.message); }
       }
       return { refused: errors.length, first: errors[0] };`,
      options,
    );
    const grewMb = (process.memoryUsage().rss - before) / (1024 * 1024);
    expect(result).toMatchObject({
      ok: true,
      value: {
        refused: 40,
        first: expect.stringMatching(
          /^SandboxLimitError: tool arguments are \d+ characters as JSON; at most 1000000 bytes .*maxToolArgumentBytes/,
        ),
      },
    });
    expect(hostCalls).toBe(0);
    // Loose: before the fix the host took all 40 and grew from 68 to 227 MB (the probe: +740 MB).
    expect(grewMb).toBeLessThan(50);
    await stillWorks();
  }, 60_000);
});

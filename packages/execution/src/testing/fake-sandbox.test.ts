import { describe, expect, it } from 'vitest';
import type { SandboxToolReply } from '../sandbox/sandbox.js';
import { FakeSandbox } from './fake-sandbox.js';

const echo = { server: 'util', name: 'echo' };
const echoing = {
  tools: [echo],
  callTool: async (_tool: unknown, args: unknown): Promise<SandboxToolReply> => ({
    ok: true,
    value: args as never,
  }),
};

describe('FakeSandbox', () => {
  it('plays the code with its script and answers a SandboxResult, with runs recorded', async () => {
    const sandbox = new FakeSandbox(async (code, options) => {
      const value = (await options.callTool(echo, { n: 2 })) as { n: number };
      options.log('got', value);
      return { code, twice: value.n * 2 };
    });
    const result = await sandbox.run('the code', echoing);
    expect(result).toEqual({
      ok: true,
      value: { code: 'the code', twice: 4 },
      logs: ['got {"n":2}'],
      toolCalls: 1,
      durationMs: expect.any(Number),
    });
    // Values cross as JSON, into null-prototype objects, as they leave the isolate.
    expect(Object.getPrototypeOf(result.ok ? result.value : {})).toBeNull();
    expect(sandbox.runs).toEqual([{ code: 'the code', options: echoing }]);
  });

  it('enforces maxToolCalls and the tools given to the run, as the real sandbox does', async () => {
    let upstream = 0;
    const flood = new FakeSandbox(async (_code, options) => {
      for (let i = 0; i < 1_000; i++) await options.callTool(echo, {});
    });
    const options = {
      ...echoing,
      callTool: async (): Promise<SandboxToolReply> => {
        upstream += 1;
        return { ok: true, value: null };
      },
    };
    expect(await flood.run('', options)).toMatchObject({
      ok: false,
      error: {
        kind: 'limit',
        name: 'SandboxLimitError',
        message: 'tool call limit reached: at most 50 calls per run',
      },
      toolCalls: 50,
    });
    expect(upstream).toBe(50);
    const undescribed = new FakeSandbox((_code, options) =>
      options.callTool({ server: 'memory', name: 'read_graph' }, {}),
    );
    expect(await undescribed.run('', options)).toMatchObject({
      ok: false,
      error: {
        kind: 'runtime',
        name: 'TypeError',
        message:
          'tools.memory.read_graph is not available: describe "memory.read_graph" with describe_tools first',
      },
      toolCalls: 0,
    });
  });

  it('ends a run at its deadline, on cancellation, and after dispose', async () => {
    const never = new FakeSandbox(() => new Promise(() => undefined));
    expect(await never.run('', { limits: { deadlineMs: 20 } })).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: 'the run passed its 20 ms deadline' },
    });
    const controller = new AbortController();
    const pending = never.run('', { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    await never.dispose();
    expect(await never.run('')).toMatchObject({ ok: false, error: { kind: 'crashed' } });
  });
});

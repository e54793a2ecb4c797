// One contract, every Sandbox: the same scenario as code for the real sandbox and as a script
// for the fake must end in the same SandboxResult, so tests written on the fake hold for real.
import { afterAll, describe, expect, it } from 'vitest';
import { IsolatedVmSandbox } from '../sandbox/isolated-vm-sandbox.js';
import type { SandboxResult, SandboxRunOptions, SandboxToolReply } from '../sandbox/sandbox.js';
import { FakeSandbox, type FakeSandboxScript } from './fake-sandbox.js';

const echo = { server: 'util', name: 'echo' };
const reply =
  (answer: (args: unknown) => SandboxToolReply) =>
  async (_tool: unknown, args: unknown): Promise<SandboxToolReply> =>
    answer(args);

const scenarios: {
  name: string;
  code: string;
  script: FakeSandboxScript;
  options: SandboxRunOptions;
}[] = [
  {
    name: 'a tool call, a log line and a value',
    code: 'const a = await tools.util.echo({ n: 1 }); console.log("got", a); return { twice: a.n * 2 };',
    script: async (_code, o) => {
      const a = (await o.callTool(echo, { n: 1 })) as { n: number };
      o.log('got', a);
      return { twice: a.n * 2 };
    },
    options: { tools: [echo], callTool: reply((args) => ({ ok: true, value: args as never })) },
  },
  {
    name: 'past the tool call cap',
    code: 'for (let i = 0; i < 5; i++) await tools.util.echo({});',
    script: async (_code, o) => {
      for (let i = 0; i < 5; i++) await o.callTool(echo, {});
    },
    options: {
      tools: [echo],
      callTool: reply(() => ({ ok: true, value: null })),
      limits: { maxToolCalls: 3 },
    },
  },
  {
    name: 'a tool the run was not given',
    code: 'return await tools.memory.read_graph({});',
    script: (_code, o) => o.callTool({ server: 'memory', name: 'read_graph' }, {}),
    options: { tools: [echo], callTool: reply(() => ({ ok: true, value: null })) },
  },
  {
    name: 'a tool that fails',
    code: 'return await tools.util.echo({});',
    script: (_code, o) => o.callTool(echo, {}),
    options: {
      tools: [echo],
      callTool: reply(() => ({
        ok: false,
        error: { code: 'TOOL_EXECUTION_FAILED', message: 'nope' },
      })),
    },
  },
  {
    name: 'an argument over maxToolArgumentBytes in bytes, not characters',
    code: 'return await tools.util.echo({ s: "€".repeat(50) });',
    script: (_code, o) => o.callTool(echo, { s: '€'.repeat(50) }),
    options: {
      tools: [echo],
      callTool: reply(() => ({ ok: true, value: null })),
      limits: { maxToolArgumentBytes: 100 },
    },
  },
  {
    name: 'a result over maxResultChars',
    code: 'return "x".repeat(100);',
    script: () => 'x'.repeat(100),
    options: { limits: { maxResultChars: 50 } },
  },
];

const real = new IsolatedVmSandbox({ workers: 1 });
afterAll(() => real.dispose());

const comparable = (result: SandboxResult) => ({ ...result, durationMs: 0 });

describe('the Sandbox contract: IsolatedVmSandbox and FakeSandbox agree', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const expected = await real.run(scenario.code, scenario.options);
      const fake = new FakeSandbox(scenario.script);
      expect(comparable(await fake.run(scenario.code, scenario.options))).toEqual(
        comparable(expected),
      );
    });
  }
});

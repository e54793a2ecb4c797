// What the sandbox attack suites share: one sandbox per file (2 workers, 1 s deadline) and
// helpers to run code with an echo tool, time a run, read a failure and check the sandbox still works.
import { afterAll, beforeAll, expect } from 'vitest';
import { IsolatedVmSandbox } from './isolated-vm-sandbox.js';
import type { SandboxResult, SandboxRunOptions } from './sandbox.js';

/** The calling file's sandbox. */
export const sbx = {} as { sandbox: IsolatedVmSandbox };

/** Opens a sandbox before the calling file's tests and disposes of it after. */
export function useTestSandbox(): void {
  beforeAll(() => {
    sbx.sandbox = new IsolatedVmSandbox({ workers: 2, limits: { deadlineMs: 1_000 } });
  });
  afterAll(async () => {
    await sbx.sandbox.dispose();
  });
}

export const echoTools = [{ provider: 'util', name: 'echo' }];
export function withEcho(
  extra: Partial<SandboxRunOptions> = {},
  onCall?: () => void,
): SandboxRunOptions {
  return {
    tools: echoTools,
    callTool: async (_tool, args) => {
      onCall?.();
      return { ok: true, value: args as never };
    },
    ...extra,
  };
}

export async function timed(
  code: string,
  options: SandboxRunOptions = {},
): Promise<{ result: SandboxResult; ms: number }> {
  const started = performance.now();
  const result = await sbx.sandbox.run(code, options);
  return { result, ms: performance.now() - started };
}

export function failure(result: SandboxResult) {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  return result.ok ? { kind: '', name: '', message: '' } : result.error;
}

export async function stillWorks(): Promise<void> {
  const after = await sbx.sandbox.run('return 40 + 2');
  expect(after).toMatchObject({ ok: true, value: 42 });
}

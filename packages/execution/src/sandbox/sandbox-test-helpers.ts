// What the sandbox attack suites share: one sandbox per file (2 workers, 1 s deadline) and
// helpers to run code with an echo tool, time a run, read a failure and check the sandbox still works.
import { afterAll, beforeAll, expect } from 'vitest';
import { IsolatedVmSandbox } from './isolated-vm-sandbox.js';
import type { SandboxResult, SandboxRunOptions } from './sandbox.js';

/** The calling file's sandbox. */
export const sbx = {} as { sandbox: IsolatedVmSandbox };

/**
 * How far past its deadline a run may end in a test: enough for a loaded 2-core machine (a CI
 * run saw 260 ms), far below a hang. The exact overshoot is measured by `pnpm bench sandbox`.
 */
export const LOADED_MACHINE_MARGIN_MS = 2_000;

/** Asserts that a run timed by {@link timed} ended by its deadline plus the loaded-machine margin. */
export function expectEndedByDeadline(ms: number, deadlineMs: number): void {
  expect(ms).toBeLessThan(deadlineMs + LOADED_MACHINE_MARGIN_MS);
}

/** Opens a sandbox before the calling file's tests and disposes of it after. */
export function useTestSandbox(): void {
  beforeAll(async () => {
    sbx.sandbox = new IsolatedVmSandbox({ workers: 2, limits: { deadlineMs: 1_000 } });
    // Both workers booted before the first test, so no timed run pays for a worker's start.
    await Promise.all([sbx.sandbox.run('return 1'), sbx.sandbox.run('return 2')]);
  });
  afterAll(async () => {
    await sbx.sandbox.dispose();
  });
}

export const echoTools = [{ server: 'util', name: 'echo' }];
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

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renamedOption } from './renamed-option.js';

describe('renamedOption', () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeEach(() => process.on('warning', onWarning));
  afterEach(() => {
    process.off('warning', onWarning);
    warnings.length = 0;
  });

  it('reads the new name, else the old one with one DeprecationWarning per old name', async () => {
    const limits: { servers?: Record<string, number> } = {};
    expect(renamedOption({ servers: { a: 1 } }, 'servers', 'providers', 'test')).toEqual({ a: 1 });
    expect(renamedOption(limits, 'servers', 'providers', 'test')).toBeUndefined();
    const old = { providers: { github: 2 } } as typeof limits;
    expect(renamedOption(old, 'servers', 'providers', 'test')).toEqual({ github: 2 });
    expect(renamedOption(old, 'servers', 'providers', 'test')).toEqual({ github: 2 });
    // The new name wins when both are given.
    const both = { servers: { a: 1 }, providers: { b: 2 } } as typeof limits;
    expect(renamedOption(both, 'servers', 'providers', 'test')).toEqual({ a: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([
      expect.objectContaining({
        name: 'DeprecationWarning',
        code: 'MCPAGENT_DEP_009',
        message: 'test.providers is deprecated: write test.servers (same value).',
      }),
    ]);
  });
});

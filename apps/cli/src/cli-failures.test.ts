// Failures that say what failed, the limit and the fix, on the built CLI.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { serverFixtures } from '@mcp-agent/test-support';
import { cliHome } from './cli-test-helpers.js';

const { home, run } = cliHome('mcp-cli-failures-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('failures that explain themselves', () => {
  it('a timeout names the tool, the server, the limit, the progress seen and how to raise it', () => {
    const added = run([
      'servers',
      'add',
      'slow',
      '--command',
      process.execPath,
      '--arg',
      serverFixtures.misbehaving,
      '--arg',
      'hang-call',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const result = run(['tools', 'call', 'slow.echo', '--args', '{"text":"x"}', '--timeout', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'mcp-agent: slow.echo timed out. Server "slow" sent no answer within 1 s (and no progress). Raise the limit for one call ("mcp-agent tools call … --timeout <seconds>"), or the server\'s timeoutMs ("mcp-agent servers add slow … --timeout <seconds> --replace").\n',
    );
  });
});

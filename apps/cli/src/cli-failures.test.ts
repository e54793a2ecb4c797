// Failures that say what failed, the limit and the fix, on the built CLI.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverFixtures } from '@mcp-agent/test-support';
import { cliHome, cliPath } from './cli-test-helpers.js';

const { home, env, run } = cliHome('mcp-cli-failures-');
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

  it('a reader that stops reading (| head) ends the command quietly, with exit code 0', async () => {
    const script = join(home, 'lines.js');
    writeFileSync(script, 'return Array.from({ length: 50000 }, (_, i) => "line " + i);');
    const child = spawn(process.execPath, [cliPath, '--home', home, 'exec', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // As head does: read a little, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it("exec's syntax errors give the line and column of the user's own file", () => {
    const script = join(home, 'broken.js');
    writeFileSync(script, 'const a = 1;\nconst b = 2;\nreturn a +;\n');
    const result = run(['exec', script]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe("mcp-agent: syntax: Unexpected token ';' [sandbox.js:3:11]\n");
  });
});

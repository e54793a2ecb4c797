import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliHome, cliPath, npmServers } from './cli-test-helpers.js';
import { alive, descendants, serverFixtures } from '@mcp-agent/test-support';

// `servers status` with real failing servers, on the built binary: each server reports its own
// final state and the reason; nothing the command started outlives it.
const node = process.execPath;
const misbehaving = (mode: string, ...args: string[]) => [
  '--command',
  node,
  '--arg',
  serverFixtures.misbehaving,
  '--arg',
  mode,
  ...args.flatMap((arg) => ['--arg', arg]),
];

describe('mcp-agent servers status (the built binary)', { timeout: 90_000 }, () => {
  it('a server crashing at start: its exit code and the line that says why, not the banner', () => {
    const { run } = cliHome('mcp-cli-crash-');
    expect(
      run(['servers', 'add', 'crash', '--command', node, '--arg', serverFixtures.crashing]).code,
    ).toBe(0);
    const status = run(['servers', 'status']);
    expect(status.code).toBe(4);
    expect(status.stdout).toMatch(/SERVER\s+STATUS\s+TOOLS\s+REASON/);
    expect(status.stdout).toMatch(
      /crash\s+failed\s+-\s+exited with code 1 before the MCP handshake: Error: Cannot find module '\.\/lib\/missing-dependency\.js'\n/,
    );
    expect(status.stdout).not.toMatch(/Node\.js v|\} \|/);
    const [json] = JSON.parse(run(['--json', 'servers', 'status']).stdout) as {
      serverId: string;
      status: string;
      reason: string;
    }[];
    expect(json).toMatchObject({ serverId: 'crash', status: 'failed' });
    expect(json?.reason).toMatch(/^exited with code 1/);
  });

  it('a hung server: a timeout at --timeout, the reason kept as its last error, withheld variables named', () => {
    const { run } = cliHome('mcp-cli-hang-', {
      MCP_AGENT_PASS_ENV: '',
      HTTPS_PROXY: 'http://proxy.test:3128',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/inspecting-proxy.pem',
    });
    expect(run(['servers', 'add', 'hang', ...misbehaving('hang-init')]).code).toBe(0);
    const status = run(['servers', 'status', '--timeout', '2']);
    expect(status.code).toBe(4);
    expect(status.stdout).toMatch(
      /hang\s+timeout\s+-\s+no MCP handshake within 2 s; withheld from its environment: NODE_EXTRA_CA_CERTS, .*HTTPS_PROXY.* \(set on this host; pass them with MCP_AGENT_PASS_ENV\)/,
    );
    // The reason outlives the command: it is the server's last error in the registry, shown in
    // the words status uses.
    expect(run(['servers', 'show', 'hang']).stdout).toMatch(
      /status:\s+timeout: no MCP handshake within 2 s/,
    );
    // Passed through (the default set), the variables are not named.
    const passing = run(['servers', 'status', '--timeout', '2'], {
      env: { MCP_AGENT_PASS_ENV: 'default' },
    });
    expect(passing.stdout).toMatch(/hang\s+timeout\s+-\s+no MCP handshake within 2 s\n/);
  });

  it('one fast-failing server next to healthy, slower ones: each reports its own state', () => {
    const { run, home } = cliHome('mcp-cli-fastfail-');
    const missing = join(home, 'config.json');
    expect(
      run(['servers', 'add', 'fastfail', ...misbehaving('boot-needs-file', missing)]).code,
    ).toBe(0);
    for (const id of ['slow1', 'slow2'])
      expect(run(['servers', 'add', id, ...misbehaving('slow-start', '3000')]).code).toBe(0);
    expect(
      run([
        'servers',
        'add',
        'memory',
        '--command',
        node,
        '--arg',
        npmServers.memory,
        '--env',
        `MEMORY_FILE_PATH=${join(home, 'memory.jsonl')}`,
      ]).code,
    ).toBe(0);
    const status = run(['servers', 'status']);
    expect(status.code).toBe(4);
    const rows = status.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.trimEnd());
    expect(rows).toEqual([
      `fastfail  failed  -      exited with code 3 before the MCP handshake: cannot start: ${missing} is missing`,
      'memory    ready   9',
      'slow1     ready   2',
      'slow2     ready   2',
    ]);
    // Asked for the healthy ones only, the answer is all ready: exit 0.
    expect(run(['servers', 'status', 'memory', 'slow1']).code).toBe(0);
    expect(run(['servers', 'status', 'nope']).code).toBe(3);
  });

  it('no server the command started outlives it: at the end of a wait, and on Ctrl-C', async () => {
    const { run, home, env } = cliHome('mcp-cli-orphans-');
    const pidFile = join(home, 'child.pid');
    expect(run(['servers', 'add', 'stuck', ...misbehaving('stuck', pidFile)]).code).toBe(0);
    // The wrapper never answers and ignores the end of its stdin; its child ignores everything.
    expect(run(['servers', 'status', '--timeout', '2']).code).toBe(4);
    const first = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(first), { timeout: 5_000 }).toBe(false);

    const cli = spawn(node, [cliPath, '--home', home, 'servers', 'status', '--timeout', '60'], {
      env,
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) =>
      cli.once('exit', (code) => resolve(code)),
    );
    let seen: number[] = [];
    await expect
      .poll(
        () => {
          seen = descendants(cli.pid as number);
          return (
            existsSync(pidFile) &&
            Number(readFileSync(pidFile, 'utf8')) !== first &&
            seen.length >= 2
          );
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(true);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(seen).toContain(grandchild);
    cli.kill('SIGINT');
    expect(await exited).toBe(130);
    await expect.poll(() => seen.filter(alive), { timeout: 5_000 }).toEqual([]);
  });
});

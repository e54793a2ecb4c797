import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, cliPath, startEverything, startListening } from './cli-test-helpers.js';
import { serverFixtures } from '@mcp-agent/test-support';

// Managing servers on the built binary: add without replacing, show, enable and disable,
// export, import of real client files, and servers from an MCP Registry on loopback.
const children: ChildProcess[] = [];
let registryUrl = '';
let everythingUrl = '';

beforeAll(async () => {
  const everything = await startEverything();
  children.push(everything.child);
  everythingUrl = everything.url;
  const registry = await startListening(serverFixtures.mcpRegistry, [everythingUrl]);
  children.push(registry.child);
  registryUrl = registry.url;
}, 60_000);
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

describe('mcp-agent servers: managing servers (the built binary)', { timeout: 90_000 }, () => {
  it('add refuses an existing id without --replace, and says "replaced" with it; show names secrets but never shows them', () => {
    const { run } = cliHome('mcp-cli-manage-');
    const add = [
      'servers',
      'add',
      'notes',
      '--command',
      'npx',
      '--arg',
      '-y',
      '--arg',
      '@acme/notes',
    ];
    expect(run([...add, '--env', 'NOTES_TOKEN=s3cr3t-value']).stdout).toBe(
      'added notes (stdio) for cli-user\n',
    );
    const again = run(add);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /A server "notes" exists already \(stdio\); add --replace to replace it, or see it with "mcp-agent servers show notes"/,
    );
    expect(run([...add, '--env', 'NOTES_TOKEN=s3cr3t-value', '--replace'])).toMatchObject({
      code: 0,
      stdout: 'replaced notes (stdio) for cli-user\n',
    });
    expect(
      JSON.parse(run(['--json', ...add, '--env', 'NOTES_TOKEN=s3cr3t-value', '--replace']).stdout),
    ).toMatchObject({ added: 'notes', replaced: true });
    const shown = run(['servers', 'show', 'notes']);
    expect(shown.stdout).toMatch(
      /^id:\s+notes\ntier:\s+user\nenabled:\s+yes\ntransport:\s+stdio\ncommand:\s+npx -y @acme\/notes\nenv:\s+NOTES_TOKEN \(values stored encrypted, not shown\)\n/,
    );
    expect(
      shown.stdout + JSON.stringify(run(['--json', 'servers', 'show', 'notes']).stdout),
    ).not.toContain('s3cr3t');
  });

  it('disable keeps a server stored but out of use, and status says how to turn it on; enable', () => {
    const { run } = cliHome('mcp-cli-disable-');
    run(['servers', 'add', 'notes', '--command', 'npx', '--arg', '@acme/notes']);
    expect(run(['servers', 'disable', 'notes']).stdout).toBe('disabled notes\n');
    expect(run(['servers', 'list']).stdout).toMatch(/notes\s+user\s+stdio\s+disabled/);
    const status = run(['servers', 'status']);
    expect(status).toMatchObject({ code: 0 });
    expect(status.stdout).toMatch(
      /notes\s+disabled\s+-\s+disabled; "mcp-agent servers enable notes" turns it on/,
    );
    expect(run(['servers', 'enable', 'notes']).stdout).toBe('enabled notes\n');
    expect(run(['servers', 'show', 'notes']).stdout).toMatch(/enabled:\s+yes/);
    expect(run(['servers', 'show', 'nope'])).toMatchObject({ code: 3 });
  });

  it('export writes mcpServers with placeholders for secrets, which import reads back', () => {
    const { run, home } = cliHome('mcp-cli-export-');
    run([
      'servers',
      'add',
      'notes',
      '--command',
      'npx',
      '--arg',
      '@acme/notes',
      '--env',
      'NOTES_TOKEN=s3cr3t-value',
    ]);
    run([
      'servers',
      'add',
      'linear',
      '--url',
      'https://mcp.linear.app/mcp',
      '--header',
      'Authorization=Bearer lin_abc',
    ]);
    run(['servers', 'disable', 'linear']);
    const exported = run(['servers', 'export']);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual({
      mcpServers: {
        linear: {
          url: 'https://mcp.linear.app/mcp',
          headers: { Authorization: '${LINEAR_AUTHORIZATION}' },
          disabled: true,
        },
        notes: { command: 'npx', args: ['@acme/notes'], env: { NOTES_TOKEN: '${NOTES_TOKEN}' } },
      },
    });
    expect(exported.stderr).toMatch(
      /set LINEAR_AUTHORIZATION, NOTES_TOKEN where you import the file, or export with --with-secrets/,
    );
    expect(JSON.parse(run(['servers', 'export', 'notes', '--with-secrets']).stdout)).toEqual({
      mcpServers: {
        notes: { command: 'npx', args: ['@acme/notes'], env: { NOTES_TOKEN: 's3cr3t-value' } },
      },
    });
    const file = join(home, 'exported.json');
    writeFileSync(file, exported.stdout);
    const other = cliHome('mcp-cli-export-other-', { NOTES_TOKEN: 'x', LINEAR_AUTHORIZATION: 'y' });
    expect(other.run(['servers', 'import', file]).stdout).toBe('imported linear, notes\n');
  });

  it("import reads VS Code's JSONC with ${workspaceFolder} and inputs, from flags or a terminal", () => {
    const { run, home } = cliHome('mcp-cli-import-');
    const workspace = join(home, 'app');
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    const file = join(workspace, '.vscode', 'mcp.json');
    writeFileSync(
      file,
      `{
  // VS Code writes comments and trailing commas
  "inputs": [{ "type": "promptString", "id": "token", "description": "Notes token", "password": true }],
  "servers": {
    "files": { "type": "stdio", "command": "npx", "args": ["-y", "server-filesystem", "\${workspaceFolder}/docs"], },
    "notes": { "command": "npx", "args": ["@acme/notes"], "env": { "NOTES_TOKEN": "\${input:token}" } },
  },
}`,
    );
    const noTerminal = run(['servers', 'import', file]);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toBe(
      'mcp-agent: The file asks for "token" (Notes token), and there is no terminal to ask on: pass --input token=<value>.\n',
    );
    expect(run(['servers', 'import', file, '--input', 'token=tok-1']).stdout).toBe(
      'imported files, notes\n',
    );
    expect(run(['servers', 'show', 'files']).stdout).toContain(
      `command:   npx -y server-filesystem ${workspace}/docs`,
    );
    // On a terminal (a pseudo-terminal here) the input is asked for, without echo.
    const other = cliHome('mcp-cli-import-tty-');
    const asked = spawnSync(
      'script',
      [
        '-qec',
        `'${process.execPath}' '${cliPath}' --home '${other.home}' servers import '${file}'`,
        '/dev/null',
      ],
      { env: other.env, input: 'tok-2\n', encoding: 'utf8', timeout: 60_000 },
    );
    expect(asked.stdout).toMatch(/Notes token \(input "token"\), hidden: /);
    expect(asked.stdout).toMatch(/imported files, notes/);
    // Typed ahead, the answer may be echoed by the terminal before the question; never after it.
    expect(asked.stdout.split('hidden: ')[1]).not.toContain('tok-2');
  });

  it('import --partial imports the valid entries and lists the rest; all or nothing without it', () => {
    const { run, home } = cliHome('mcp-cli-partial-');
    const file = join(home, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          good: { command: 'npx', args: ['-y', '@acme/good'] },
          'Bad Name': { command: 'npx' },
          editor: { command: 'npx', args: ['${file}'] },
        },
      }),
    );
    const strict = run(['servers', 'import', file]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(
      /Invalid .*claude_desktop_config.json: mcpServers\["Bad Name"\]: .*mcpServers.editor.args\[0\]: "\$\{file\}" is a VS Code editor variable/,
    );
    expect(run(['servers', 'list']).stdout).toMatch(/^no servers/);
    const partial = run(['servers', 'import', file, '--partial']);
    expect(partial.code).toBe(0);
    expect(partial.stdout).toMatch(
      /^imported good\nleft out 2 \(fix them and import again\):\n {2}Bad Name: mcpServers\["Bad Name"\]: "Bad Name" is not a valid server id.*\n {2}editor: mcpServers.editor.args\[0\]: /,
    );
    expect(run(['servers', 'list']).stdout).toMatch(/^good\s+user\s+stdio/);
  });

  it('registry search, then servers add --from-registry, against a loopback MCP Registry', () => {
    const { run } = cliHome('mcp-cli-registry-', { MCP_AGENT_MCP_REGISTRY_URL: registryUrl });
    const search = run(['registry', 'search', 'weather']);
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(
      /NAME\s+VERSION\s+RUNS AS\s+DESCRIPTION\nio\.github\.acme\/weather\s+1\.2\.0\s+npm @acme\/weather-mcp\s+Forecasts and current/,
    );
    expect(JSON.parse(run(['--json', 'registry', 'search', 'io']).stdout).servers).toHaveLength(3);
    const needs = run(['servers', 'add', '--from-registry', 'io.github.acme/weather']);
    expect(needs.code).toBe(2);
    expect(needs.stderr).toMatch(
      /"io.github.acme\/weather" \(npm package @acme\/weather-mcp@1.2.0\) needs values you have not given: --env WEATHER_API_KEY=<secret> \(Your Acme API key\)/,
    );
    expect(
      run([
        'servers',
        'add',
        '--from-registry',
        'io.github.acme/weather',
        '--env',
        'WEATHER_API_KEY=k',
      ]).stdout,
    ).toBe(
      'added weather (stdio) for cli-user from io.github.acme/weather 1.2.0 (npm package @acme/weather-mcp@1.2.0)\n',
    );
    expect(run(['servers', 'show', 'weather']).stdout).toMatch(
      /command:\s+npx -y @acme\/weather-mcp@1.2.0 --units=metric\nenv:\s+WEATHER_API_KEY, WEATHER_REGION/,
    );
    expect(
      run(['servers', 'add', 'everything', '--from-registry', 'io.test/remote-everything']).code,
    ).toBe(0);
    const called = run([
      'tools',
      'call',
      'everything.echo',
      '--args',
      '{"message": "from the registry"}',
    ]);
    expect(called).toMatchObject({ code: 0 });
    expect(called.stdout).toContain('from the registry');
    expect(run(['servers', 'add', '--from-registry', 'io.github.acme/nope']).code).toBe(3);
    const unreachable = run(['registry', 'search', 'x'], {
      env: { MCP_AGENT_MCP_REGISTRY_URL: 'http://127.0.0.1:9' },
    });
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toMatch(/The MCP Registry at http:\/\/127.0.0.1:9 did not answer/);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'jsonc-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliHome, cliPath, npmServers } from './cli-test-helpers.js';

// What a client runs: the launcher, which refuses an older Node in one line, not cli.js itself.
const launcher = cliPath.replace(/cli\.js$/, 'mcp-agent.js');
import { serverFixtures } from '@mcp-agent/test-support';

// The conventions users bring, on the built binary: strict flags, --version, help per
// subcommand, readable errors, whole results, commands that start only what they need, logs,
// and client set-up.
const { run, home, env } = cliHome('mcp-cli-conventions-');
const pidOf = (name: string) => join(home, `${name}.pid`);

beforeAll(() => {
  const memory = [
    'servers',
    'add',
    'memory',
    '--command',
    process.execPath,
    '--arg',
    npmServers.memory,
    '--env',
    `MEMORY_FILE_PATH=${join(home, 'memory.jsonl')}`,
  ];
  expect(run(memory).code).toBe(0);
  // Two servers that write their pid to a file whenever they start.
  for (const name of ['one', 'two'])
    expect(
      run([
        'servers',
        'add',
        name,
        '--command',
        process.execPath,
        '--arg',
        serverFixtures.misbehaving,
        '--arg',
        'fork-grandchild',
        '--arg',
        pidOf(name),
      ]).code,
    ).toBe(0);
  expect(run(['servers', 'status']).code).toBe(0);
}, 90_000);

describe('mcp-agent conventions (the built binary)', { timeout: 90_000 }, () => {
  it('an unknown flag is an error with a did-you-mean, never ignored; --version; help per subcommand', () => {
    const typo = run(['tools', 'call', 'memory.read_graph', '--agrs', '{}']);
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toBe(
      'mcp-agent: unknown flag --agrs for "mcp-agent tools call"; did you mean --args? Run "mcp-agent tools call --help".\n',
    );
    expect(run(['servers', 'list', '--limit', '3']).stderr).toMatch(
      /unknown flag --limit for "mcp-agent servers list"; it takes no flags/,
    );
    expect(run(['tools', 'call', 'memory.read_graph', '--args']).stderr).toMatch(
      /--args needs a value/,
    );
    expect(run(['--json', 'tools', 'call', 'x', '--agrs', '{}']).stdout).toMatch(
      /^\{"error":\{"code":"INVALID_ARGUMENTS"/,
    );
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(run(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const addHelp = run(['servers', 'add', '--help']);
    expect(addHelp.code).toBe(0);
    expect(addHelp.stdout).toMatch(/^mcp-agent servers add — add one server/);
    expect(addHelp.stdout).toContain('--from-registry');
    expect(run(['servers', 'status', '--help']).stdout).toMatch(/^mcp-agent servers status/);
    expect(run(['tools', 'call', '--help']).stdout).toMatch(/^mcp-agent tools/);
    expect(run(['sever', 'list']).stderr).toMatch(
      /unknown command "sever" \(did you mean "servers"\?\)/,
    );
  });

  it('no raw ENOENT or NaN reaches the user; errors name CLI commands, not meta-tools', () => {
    for (const args of [
      ['exec', join(home, 'missing.js')],
      ['servers', 'import', join(home, 'missing.json')],
      ['tools', 'call', 'memory.read_graph', '--args', `@${join(home, 'missing.json')}`],
    ]) {
      const result = run(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^mcp-agent: No such file or directory: .*missing\.(js|json)\.\n$/,
      );
    }
    for (const [args, message] of [
      [['serve', '--http', 'abc'], /--http must be a whole number from 0 to 65535, not "abc"/],
      [
        ['auth', 'login', 'memory', '--port', 'NaN'],
        /--port must be a whole number from 1 to 65535, not "NaN"/,
      ],
      [
        ['tools', 'search', 'x', '--limit', '0'],
        /--limit must be a whole number from 1 to 50, not "0"/,
      ],
      [
        ['servers', 'status', '--timeout', '-1'],
        /--timeout must be a whole number from 1 to 600, not "-1"/,
      ],
    ] as const) {
      const result = run([...args]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/NaN\)|Received type|ENOENT|ERR_/);
    }
    const unknown = run(['tools', 'call', 'memory.nope', '--args', '{}']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/Use "mcp-agent tools search" to find tool ids/);
    const invalid = run(['tools', 'call', 'memory.create_entities', '--args', '{"entities": 5}']);
    expect(invalid.stderr).toMatch(
      /Read the tool with "mcp-agent tools describe" and call it again/,
    );
    expect(unknown.stderr + invalid.stderr).not.toMatch(/search_tools|describe_tools/);
    const badLevel = run(['servers', 'status'], { env: { MCP_AGENT_LOG_LEVEL: 'loud' } });
    expect(badLevel).toMatchObject({ code: 2 });
    expect(badLevel.stderr).toMatch(
      /MCP_AGENT_LOG_LEVEL is "loud"; use one of debug, info, warn, error, silent/,
    );
  });

  it('tools call prints the whole result, however large; nothing is cut', () => {
    const entities = Array.from({ length: 40 }, (_, i) => ({
      name: `entity-${i}`,
      entityType: 'note',
      observations: [`${'long observation '.repeat(40)}#${i}`],
    }));
    expect(
      run(['tools', 'call', 'memory.create_entities', '--args', JSON.stringify({ entities })]).code,
    ).toBe(0);
    const graph = run(['tools', 'call', 'memory.read_graph', '--args', '{}']);
    expect(graph.code).toBe(0);
    expect(graph.stdout.length).toBeGreaterThan(30_000);
    const parsed = JSON.parse(graph.stdout) as {
      entities: { name: string; observations: string[] }[];
    };
    expect(parsed.entities).toHaveLength(40);
    expect(parsed.entities[39]?.observations[0]).toBe(entities[39]?.observations[0]);
    expect(graph.stdout).not.toMatch(/truncated|items\]|more items/);
    // --full is accepted, and the same.
    expect(run(['tools', 'call', 'memory.read_graph', '--full']).stdout).toBe(graph.stdout);
  });

  it('tools search and describe start no server; tools call starts only its own', () => {
    for (const name of ['one', 'two']) rmSync(pidOf(name), { force: true });
    expect(run(['tools', 'search', 'echo', 'the', 'text']).stdout).toMatch(/^(one|two)\.echo/);
    expect(run(['tools', 'describe', 'one.echo', 'two.echo']).code).toBe(0);
    expect(existsSync(pidOf('one')) || existsSync(pidOf('two'))).toBe(false);
    expect(run(['tools', 'call', 'one.echo', '--args', '{"text": "hi"}'])).toMatchObject({
      code: 0,
      stdout: 'hi\n',
    });
    expect(existsSync(pidOf('one'))).toBe(true);
    expect(existsSync(pidOf('two'))).toBe(false);
    // A server that was never connected is named, with the command that connects it.
    expect(
      run([
        'servers',
        'add',
        'fresh',
        '--command',
        process.execPath,
        '--arg',
        serverFixtures.misbehaving,
      ]).code,
    ).toBe(0);
    expect(run(['tools', 'search', 'echo']).stderr).toBe(
      'note: fresh has not been connected yet, so its tools are not included; "mcp-agent servers status" connects it.\n',
    );
    expect(run(['servers', 'remove', 'fresh']).code).toBe(0);
  });

  it('logs: MCP_AGENT_LOG_LEVEL and --verbose; JSON lines off a terminal, readable lines on one', () => {
    const broken = ['servers', 'add', 'broken', '--command', join(home, 'no-such-program')];
    expect(run(broken).code).toBe(0);
    try {
      const quiet = run(['servers', 'status', 'broken']);
      expect(quiet.stderr).toBe('');
      for (const options of [{ env: { MCP_AGENT_LOG_LEVEL: 'warn' } }, {}]) {
        const args =
          options.env === undefined
            ? ['--verbose', 'servers', 'status', 'broken']
            : ['servers', 'status', 'broken'];
        const logged = run(args, options);
        const lines = logged.stderr
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { level: number; msg: string });
        expect(
          lines.some((line) => line.level === 40 && line.msg === 'discovery attempt failed'),
        ).toBe(true);
      }
      // On a terminal (a pseudo-terminal here), pino-pretty's lines.
      const pretty = spawnSync(
        'script',
        [
          '-qec',
          `'${process.execPath}' '${cliPath}' --home '${home}' --verbose servers status broken`,
          '/dev/null',
        ],
        { env, encoding: 'utf8', timeout: 60_000 },
      );
      expect(pretty.stdout).toMatch(/WARN.*discovery attempt failed/);
      expect(pretty.stdout).not.toMatch(/"level":40/);
    } finally {
      run(['servers', 'remove', 'broken']);
    }
  });

  it('client-config prints each client its entry, and --write merges it into the file, keeping the rest', async () => {
    const folder = join(home, 'project');
    mkdirSync(join(folder, '.vscode'), { recursive: true });
    const snippets: Record<string, unknown> = {};
    for (const client of ['claude', 'cursor', 'vscode', 'claude-code']) {
      const printed = run(['--json', '--user', 'alice', 'client-config', client], { cwd: folder });
      expect(printed.code).toBe(0);
      snippets[client] = (JSON.parse(printed.stdout) as { snippet: unknown }).snippet;
    }
    const entry = {
      command: process.execPath,
      args: [launcher, '--user', 'alice', '--home', home, 'serve', '--stdio'],
    };
    expect(snippets).toEqual({
      claude: { mcpServers: { 'mcp-agent': entry } },
      cursor: { mcpServers: { 'mcp-agent': entry } },
      vscode: { servers: { 'mcp-agent': { type: 'stdio', ...entry } } },
      'claude-code': { mcpServers: { 'mcp-agent': { type: 'stdio', ...entry } } },
    });
    expect(run(['client-config', 'claude-code'], { cwd: folder }).stdout).toContain(
      `claude mcp add-json mcp-agent '`,
    );
    // VS Code's file keeps its comment and its other server.
    const vscodeFile = join(folder, '.vscode', 'mcp.json');
    writeFileSync(
      vscodeFile,
      '{\n  // mine\n  "servers": {\n    "other": { "type": "stdio", "command": "x" },\n  },\n}\n',
    );
    const written = run(['client-config', 'vscode', '--write'], { cwd: folder });
    expect(written.stdout).toBe(
      `added "mcp-agent" under "servers" in ${vscodeFile}; everything else is as it was. Restart VS Code to load it.\n`,
    );
    const text = readFileSync(vscodeFile, 'utf8');
    expect(text).toContain('// mine');
    expect(parse(text)).toMatchObject({
      servers: {
        other: { type: 'stdio', command: 'x' },
        'mcp-agent': { type: 'stdio', command: process.execPath },
      },
    });
    expect(run(['client-config', 'vscode', '--write'], { cwd: folder }).stdout).toMatch(
      /already has "mcp-agent" as it should be; nothing changed/,
    );
    expect(
      run(['--user', 'bob', 'client-config', 'vscode', '--write'], { cwd: folder }).stdout,
    ).toMatch(/^replaced "mcp-agent"/);
    // Claude Desktop's and Cursor's files under the home directory; Claude Code's in the folder.
    const fakeHome = join(home, 'user-home');
    const homeEnv = { HOME: fakeHome, XDG_CONFIG_HOME: join(fakeHome, '.config') };
    mkdirSync(join(fakeHome, '.cursor'), { recursive: true });
    writeFileSync(
      join(fakeHome, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { kept: { url: 'https://x.example/mcp' } } }),
    );
    for (const [client, file] of [
      ['claude', join(fakeHome, '.config', 'Claude', 'claude_desktop_config.json')],
      ['cursor', join(fakeHome, '.cursor', 'mcp.json')],
      ['claude-code', join(folder, '.mcp.json')],
    ] as const) {
      expect(run(['client-config', client, '--write'], { cwd: folder, env: homeEnv }).code).toBe(0);
      const config = JSON.parse(readFileSync(file, 'utf8')) as {
        mcpServers: Record<string, unknown>;
      };
      expect(config.mcpServers['mcp-agent']).toMatchObject({ command: process.execPath });
    }
    expect(
      JSON.parse(readFileSync(join(fakeHome, '.cursor', 'mcp.json'), 'utf8')).mcpServers.kept,
    ).toEqual({ url: 'https://x.example/mcp' });
    writeFileSync(join(folder, 'broken.json'), '{ nope');
    const refused = run([
      'client-config',
      'cursor',
      '--write',
      '--file',
      join(folder, 'broken.json'),
    ]);
    expect(refused.code).toBe(2);
    expect(readFileSync(join(folder, 'broken.json'), 'utf8')).toBe('{ nope');
    // The written entry runs: an MCP client starts it and lists the gateway's tools.
    const vscode = JSON.parse(
      run(['--json', '--home', home, 'client-config', 'vscode'], { cwd: folder }).stdout,
    ) as { snippet: { servers: Record<string, { command: string; args: string[] }> } };
    const gateway = vscode.snippet.servers['mcp-agent'] as { command: string; args: string[] };
    // The launcher, which refuses an older Node in one line, not cli.js itself.
    expect(gateway.args).toEqual([launcher, '--home', home, 'serve', '--stdio']);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: gateway.command,
        args: gateway.args,
        env: env as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_tools');
    } finally {
      await client.close();
    }
  });
});

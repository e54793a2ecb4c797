import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { configInputs, parseServerConfigFile, parseServerEntry } from './config-file.js';

const env = { HOME_DIR: '/home/a', TOKEN: 'tok-123', EMPTY: '' };

function issuesOf(input: unknown, environment: Record<string, string> = env) {
  try {
    parseServerConfigFile(input, { env: environment, source: 'test.json' });
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid test\.json: /);
    return (error as ConfigError).details.issues as { path: string; message: string }[];
  }
  throw new Error('expected a ConfigError');
}

describe('parseServerConfigFile: Claude Desktop / Cursor / Claude Code mcpServers', () => {
  it('reads stdio and remote servers, in file order, expanding ${ENV}', () => {
    const file = parseServerConfigFile(
      JSON.stringify({
        mcpServers: {
          files: {
            command: 'npx',
            args: ['-y', 'server-filesystem', '${HOME_DIR}/docs'],
            env: { T: '${TOKEN}' },
          },
          linear: { url: 'https://mcp.linear.app/sse', type: 'sse' },
          notion: {
            type: 'http',
            url: 'https://mcp.notion.com/mcp',
            headers: { Authorization: 'Bearer ${TOKEN}' },
          },
          cursor: { url: 'https://x.example/mcp' },
          off: { command: 'x', disabled: true },
        },
      }),
      { env },
    );
    expect(file.format).toBe('mcpServers');
    expect(file.ignored).toEqual([]);
    expect(file.servers.map((s) => [s.id, s.transport, s.enabled])).toEqual([
      ['files', 'stdio', true],
      ['linear', 'sse', true],
      ['notion', 'streamable-http', true],
      ['cursor', 'auto', true],
      ['off', 'stdio', false],
    ]);
    expect(file.servers[0]).toMatchObject({
      args: ['-y', 'server-filesystem', '/home/a/docs'],
      env: { T: 'tok-123' },
    });
    expect(file.servers[2]).toMatchObject({ headers: { Authorization: 'Bearer tok-123' } });
  });

  it('supports ${VAR:-default} and ${env:VAR}, and treats empty as unset', () => {
    const file = parseServerConfigFile(
      {
        mcpServers: {
          a: { command: '${MISSING:-node}', args: ['${env:HOME_DIR}', '${EMPTY:-fallback}'] },
        },
      },
      { env },
    );
    expect(file.servers[0]).toMatchObject({ command: 'node', args: ['/home/a', 'fallback'] });
  });

  it("reports other clients' extra keys as ignored instead of failing", () => {
    const file = parseServerConfigFile(
      { mcpServers: { a: { command: 'x', autoApprove: [], timeout: 60 } } },
      { env },
    );
    expect(file.ignored).toEqual(['mcpServers.a.autoApprove', 'mcpServers.a.timeout']);
  });

  it('uses process.env by default', () => {
    process.env.MCP_AGENT_TEST_VALUE = 'from-process';
    const file = parseServerConfigFile({
      mcpServers: { a: { command: '${MCP_AGENT_TEST_VALUE}' } },
    });
    expect(file.servers[0]).toMatchObject({ command: 'from-process' });
    delete process.env.MCP_AGENT_TEST_VALUE;
  });
});

describe('parseServerConfigFile: VS Code servers + type', () => {
  it('reads stdio, http and sse entries', () => {
    const file = parseServerConfigFile(
      {
        inputs: [],
        servers: {
          github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
          legacy: { type: 'sse', url: 'http://localhost:3001/sse' },
          memory: {
            type: 'stdio',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-memory'],
          },
        },
      },
      { env },
    );
    expect(file.format).toBe('vscode');
    expect(file.servers.map((s) => s.transport)).toEqual(['streamable-http', 'sse', 'stdio']);
  });

  it('refuses ${input:…} and ${workspaceFolder} with a fix', () => {
    const issues = issuesOf({
      servers: {
        a: {
          type: 'stdio',
          command: 'x',
          args: ['${workspaceFolder}'],
          env: { K: '${input:key}' },
        },
      },
    });
    expect(issues).toEqual([
      { path: 'servers.a.args[0]', message: expect.stringMatching(/workspaceFolder is not set/) },
      {
        path: 'servers.a.env.K',
        message: expect.stringMatching(/unsupported placeholder "\$\{input:key\}"/),
      },
    ]);
  });

  it('refuses envFile', () => {
    expect(issuesOf({ servers: { a: { type: 'stdio', command: 'x', envFile: '.env' } } })).toEqual([
      { path: 'servers.a.envFile', message: expect.stringMatching(/not supported/) },
    ]);
  });
});

describe('parseServerConfigFile: invalid files', () => {
  it.each([
    ['{"mcpServers": {', /not valid JSON/],
    ['[]', /must be a JSON object/],
    ['{"tools": {}}', /neither "mcpServers"/],
    ['{"mcpServers": []}', /mapping server ids/],
  ])('rejects %s', (text, message) => {
    expect(() => parseServerConfigFile(text, { env })).toThrow(message);
  });

  it('lists every bad server and path at once, and returns nothing', () => {
    const issues = issuesOf({
      mcpServers: {
        'my.server': { command: 'x' },
        'GitHub Server': { command: 'x' },
        ok: { command: 'node' },
        nothing: {},
        remote: { type: 'websocket', url: 'wss://x' },
        badurl: { type: 'http', url: 'localhost:3000' },
        needsvar: { command: '${NOT_SET}' },
        notobject: 'npx server',
      },
    });
    expect(issues.map((i) => i.path)).toEqual([
      'mcpServers["my.server"]',
      'mcpServers["GitHub Server"]',
      'mcpServers.nothing',
      'mcpServers.remote.type',
      'mcpServers.badurl.url',
      'mcpServers.needsvar.command',
      'mcpServers.notobject',
    ]);
    expect(issues[1]?.message).toMatch(/for example to "github-server"/);
    expect(issues[5]?.message).toMatch(/NOT_SET is not set/);
  });

  it('never echoes a secret value in errors', () => {
    const secret = 'xoxb-1234567890-SECRETSECRET';
    try {
      parseServerConfigFile(
        {
          mcpServers: {
            s: {
              type: 'http',
              url: `https://x.example/${'${NOPE}'}`,
              headers: { 'bad name': secret },
            },
          },
        },
        { env: {} },
      );
      expect.unreachable();
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain('SECRETSECRET');
      expect((error as Error).message).not.toContain('SECRETSECRET');
    }
  });
});

describe('parseServerConfigFile: VS Code files as VS Code writes them', () => {
  it('accepts comments and trailing commas (JSONC), and says where real JSON breaks', () => {
    const file = parseServerConfigFile(
      `{
        // the servers of this workspace
        "servers": {
          "memory": { "type": "stdio", "command": "npx", "args": ["-y", "server-memory",], }, /* trailing */
        },
      }`,
      { env },
    );
    expect(file.servers[0]).toMatchObject({ id: 'memory', args: ['-y', 'server-memory'] });
    expect(() => parseServerConfigFile('{"servers": {"a": }', { env })).toThrow(
      /not valid JSON \(ValueExpected at line 1, column 19; comments and trailing commas are accepted\)/,
    );
  });

  it('resolves the workspace variables it is given and refuses editor-only ones by name', () => {
    const file = parseServerConfigFile(
      {
        servers: {
          files: {
            command: 'npx',
            args: ['${workspaceFolder}/src', '${workspaceFolderBasename}', '${userHome}${/}notes'],
          },
        },
      },
      {
        env,
        variables: {
          workspaceFolder: '/w/app',
          workspaceFolderBasename: 'app',
          userHome: '/home/u',
          '/': '/',
        },
      },
    );
    expect(file.servers[0]).toMatchObject({ args: ['/w/app/src', 'app', '/home/u/notes'] });
    expect(
      issuesOf({
        servers: {
          a: { command: 'x', args: ['${file}', '${config:editor.tabSize}', '${command:pick}'] },
        },
      }).map((issue) => issue.message),
    ).toEqual([
      expect.stringMatching(
        /"\$\{file\}" is a VS Code editor variable with no value outside the editor; write the value instead/,
      ),
      expect.stringMatching(/"\$\{config:editor.tabSize\}" is a VS Code editor variable/),
      expect.stringMatching(/"\$\{command:pick\}" is a VS Code editor variable/),
    ]);
  });

  it('takes ${input:…} values it is given, and lists the inputs a file uses', () => {
    const document = {
      inputs: [
        { type: 'promptString', id: 'token', description: 'GitHub token', password: true },
        { type: 'promptString', id: 'unused', description: 'never used' },
      ],
      servers: {
        github: {
          type: 'http',
          url: 'https://api.example/mcp',
          headers: { Authorization: 'Bearer ${input:token}' },
        },
        other: { command: 'x', env: { REGION: '${input:region}' } },
      },
    };
    expect(configInputs(document)).toEqual([
      { id: 'token', description: 'GitHub token', password: true },
      { id: 'region', description: undefined, password: false },
    ]);
    const file = parseServerConfigFile(document, { env, inputs: { token: 't0k3n', region: 'eu' } });
    expect(file.servers[0]).toMatchObject({ headers: { Authorization: 'Bearer t0k3n' } });
    expect(file.servers[1]).toMatchObject({ env: { REGION: 'eu' } });
  });

  it('partial: the valid servers come back, the others are listed with their issues', () => {
    const file = parseServerConfigFile(
      { mcpServers: { ok: { command: 'node' }, 'Bad Id': { command: 'x' }, nothing: {} } },
      { env, partial: true },
    );
    expect(file.servers.map((s) => s.id)).toEqual(['ok']);
    expect(file.rejected).toEqual([
      { id: 'Bad Id', issues: [expect.objectContaining({ path: 'mcpServers["Bad Id"]' })] },
      {
        id: 'nothing',
        issues: [expect.objectContaining({ message: expect.stringMatching(/needs "command"/) })],
      },
    ]);
    expect(() => parseServerConfigFile('[]', { env, partial: true })).toThrow(
      /must be a JSON object/,
    );
  });
});

describe('parseServerEntry: one server in the mcpServers shape, as an API receives it', () => {
  it('infers the transport like an import, and takes the canonical shape too', () => {
    expect(parseServerEntry({ id: 'memory', command: 'npx', args: ['-y', 'm'] })).toMatchObject({
      id: 'memory',
      transport: 'stdio',
    });
    expect(parseServerEntry({ id: 'linear', url: 'https://mcp.linear.app/mcp' })).toMatchObject({
      transport: 'auto',
    });
    expect(parseServerEntry({ id: 'h', type: 'http', url: 'https://x.example/mcp' })).toMatchObject(
      {
        transport: 'streamable-http',
      },
    );
    expect(
      parseServerEntry({ id: 's', transport: 'sse', url: 'https://x.example/sse' }),
    ).toMatchObject({ transport: 'sse' });
  });

  it('says what is missing, and expands no placeholder when told not to', () => {
    expect(() => parseServerEntry({ command: 'x' })).toThrow(/id: is missing/);
    expect(() => parseServerEntry({ id: 'a' })).toThrow(/needs "command" \(stdio\) or "url"/);
    expect(() =>
      parseServerEntry({ id: 'a', command: 'x', env: { K: '${HOME}' } }, { expand: false }),
    ).toThrow(/env.K: placeholder "\$\{HOME\}" is not expanded here; write the value itself/);
  });
});

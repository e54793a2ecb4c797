import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { parseServerConfigFile } from './config-file.js';

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

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { parseServerConfig } from './server-config.js';

function issuesOf(input: unknown): { path: string; message: string }[] {
  try {
    parseServerConfig(input);
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return (error as ConfigError).details.issues as { path: string; message: string }[];
  }
  throw new Error('expected a ConfigError');
}

describe('parseServerConfig', () => {
  it('accepts stdio and fills defaults', () => {
    expect(parseServerConfig({ id: 'memory', transport: 'stdio', command: 'npx' })).toEqual({
      id: 'memory',
      transport: 'stdio',
      command: 'npx',
      args: [],
      env: {},
      enabled: true,
    });
  });

  it.each(['streamable-http', 'sse', 'auto'] as const)(
    'accepts remote transport %s',
    (transport) => {
      const config = parseServerConfig({ id: 'remote', transport, url: 'https://x.example/mcp' });
      expect(config).toMatchObject({ transport, headers: {}, enabled: true });
    },
  );

  it.each([
    [{ id: 'a.b', transport: 'stdio', command: 'x' }, 'id', /no dots/],
    [{ id: 'A', transport: 'stdio', command: 'x' }, 'id', /lowercase/],
    [{ id: 'ok', transport: 'stdio', command: '  ' }, 'command', /program to run/],
    [{ id: 'ok', transport: 'carrier-pigeon', command: 'x' }, 'transport', /.+/],
    [{ id: 'ok', transport: 'sse', url: 'ftp://x/y' }, 'url', /http:\/\/ or https:\/\//],
    [{ id: 'ok', transport: 'sse', url: 'not a url' }, 'url', /absolute/],
    [
      { id: 'ok', transport: 'sse', url: 'https://x', headers: { 'bad header': 'v' } },
      'headers["bad header"]',
      /header name/,
    ],
    [
      { id: 'ok', transport: 'sse', url: 'https://x', headers: { x: 'a\r\nInjected: 1' } },
      'headers.x',
      /line breaks/,
    ],
    [
      { id: 'ok', transport: 'stdio', command: 'x', env: { '1BAD': 'v' } },
      'env["1BAD"]',
      /environment variable name/,
    ],
    [{ id: 'ok', transport: 'stdio', command: 'x', shell: true }, '(root)', /shell/],
  ])('rejects %j at %s', (input, path, message) => {
    const issues = issuesOf(input);
    const issue = issues.find((i) => i.path === path);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    expect(issue?.message).toMatch(message);
  });

  it('lists every bad path at once', () => {
    const issues = issuesOf({ id: 'Bad.Id', transport: 'stdio', command: '', args: [1] });
    expect(issues.map((i) => i.path).sort()).toEqual(['args[0]', 'command', 'id']);
  });

  it('never echoes values, which may be secrets', () => {
    const secret = 'ghp_SUPERSECRETVALUE1234567890';
    try {
      parseServerConfig({
        id: 'x',
        transport: 'sse',
        url: secret,
        headers: { Authorization: `${secret}\n` },
      });
      expect.unreachable();
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain('SUPERSECRET');
      expect((error as Error).message).not.toContain('SUPERSECRET');
    }
  });
});

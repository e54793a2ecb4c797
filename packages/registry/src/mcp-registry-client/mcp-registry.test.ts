import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpRegistryClient } from './mcp-registry-client.js';
import { serverConfigFromRegistry, suggestedId } from './registry-server-config.js';
import { serverFixtures } from '@mcp-agent/test-support';

// The MCP Registry client against a loopback server speaking the official API's format.
let fixture: ChildProcess;
let base = '';

beforeAll(async () => {
  fixture = spawn(process.execPath, [serverFixtures.mcpRegistry, 'http://127.0.0.1:9/mcp'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise<string>((resolve, reject) => {
    fixture.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match) resolve(match[1] as string);
    });
    fixture.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
});
afterAll(() => fixture.kill('SIGKILL'));

describe('McpRegistryClient', () => {
  it('searches latest versions by name, page by page', async () => {
    const client = new McpRegistryClient({ baseUrl: `${base}/` });
    const page = await client.search('weather');
    expect(page.servers).toHaveLength(1);
    expect(page.servers[0]).toMatchObject({
      name: 'io.github.acme/weather',
      version: '1.2.0',
      status: 'active',
      title: 'Weather',
    });
    const first = await client.search('', { limit: 2 });
    expect(first.servers.map((s) => s.name)).toEqual([
      'io.github.acme/weather',
      'io.test/remote-everything',
    ]);
    const second = await client.search('', { limit: 2, cursor: first.nextCursor as string });
    expect(second).toMatchObject({ nextCursor: undefined });
    expect(second.servers.map((s) => s.name)).toEqual(['io.github.dotnet/only-nuget']);
  });

  it('gets one server by its exact name; an unknown name is not found', async () => {
    const client = new McpRegistryClient({ baseUrl: base });
    expect((await client.get('io.github.acme/weather')).packages[0]?.identifier).toBe(
      '@acme/weather-mcp',
    );
    await expect(client.get('io.github.acme/nope')).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
      message: expect.stringMatching(/has no server named "io.github.acme\/nope"/),
    });
  });

  it('a registry that cannot be reached, or is not one, is NOT_READY naming it', async () => {
    await expect(
      new McpRegistryClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 }).search('x'),
    ).rejects.toMatchObject({
      code: 'NOT_READY',
      message: expect.stringMatching(/at http:\/\/127.0.0.1:9 did not answer/),
    });
    const other: Server = createServer((_req, res) => res.end('<html>hello</html>'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as { port: number };
    await expect(
      new McpRegistryClient({ baseUrl: `http://127.0.0.1:${port}` }).search('x'),
    ).rejects.toThrow(/answered with an answer that is not JSON; is it an MCP Registry API/);
    await expect(
      new McpRegistryClient({ baseUrl: base, maxBytes: 100 }).search(''),
    ).rejects.toThrow(/larger than 100 bytes/);
    await new Promise((resolve) => other.close(resolve));
  });
});

describe('serverConfigFromRegistry', () => {
  it('an npm package runs through npx -y at its version, with defaults filled and required values asked for', async () => {
    const entry = await new McpRegistryClient({ baseUrl: base }).get('io.github.acme/weather');
    const missing = serverConfigFromRegistry(entry);
    expect(missing).toEqual({
      ok: false,
      via: 'npm package @acme/weather-mcp@1.2.0',
      missing: [
        { kind: 'env', name: 'WEATHER_API_KEY', description: 'Your Acme API key', secret: true },
      ],
    });
    expect(serverConfigFromRegistry(entry, { env: { WEATHER_API_KEY: 'k' } })).toEqual({
      ok: true,
      via: 'npm package @acme/weather-mcp@1.2.0',
      config: {
        id: 'weather',
        name: 'Weather',
        description: 'Forecasts and current conditions from the Acme weather service',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@acme/weather-mcp@1.2.0', '--units=metric'],
        env: { WEATHER_API_KEY: 'k', WEATHER_REGION: 'eu' },
      },
    });
  });

  it('a remote becomes a streamable-http server; an unsupported package type says what it offers', async () => {
    const client = new McpRegistryClient({ baseUrl: base });
    expect(serverConfigFromRegistry(await client.get('io.test/remote-everything'))).toMatchObject({
      ok: true,
      config: {
        id: 'remote-everything',
        transport: 'streamable-http',
        url: 'http://127.0.0.1:9/mcp',
      },
    });
    expect(serverConfigFromRegistry(await client.get('io.github.dotnet/only-nuget'))).toEqual({
      ok: false,
      unsupported:
        '"io.github.dotnet/only-nuget" offers nuget package over stdio; mcp-agent runs npm, PyPI and OCI packages over stdio, and streamable-http or sse remotes',
    });
    expect(suggestedId('io.github.Acme/My Server!')).toBe('my-server');
  });
});

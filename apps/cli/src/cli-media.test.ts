import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, npmServers } from './cli-test-helpers.js';

// The built binary against server-everything over stdio, as a user runs it.
const { home, run } = cliHome('mcp-cli-media-');
const out = mkdtempSync(join(tmpdir(), 'mcp-cli-media-out-'));

beforeAll(() => {
  const added = run([
    'servers',
    'add',
    'everything',
    '--command',
    process.execPath,
    '--arg',
    npmServers.everything,
  ]);
  expect(added.code, added.stderr).toBe(0);
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

describe('mcp-agent tools call and exec write media to files', () => {
  it('OUT-05 tools call of an image tool writes the PNG to --out and prints its path, not its data', () => {
    const called = run(['tools', 'call', 'everything.get-tiny-image', '--out', out]);
    expect(called.code, called.stderr).toBe(0);
    const file = join(out, 'get-tiny-image-1.png');
    const png = readFileSync(file);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const printed = JSON.parse(called.stdout) as { type: string; file?: string; bytes?: number }[];
    expect(printed.find((block) => block.type === 'image')).toEqual({
      type: 'image',
      mimeType: 'image/png',
      bytes: png.length,
      file,
    });
    expect(called.stdout).not.toContain(png.toString('base64').slice(0, 60));
    // A second call never overwrites the first file.
    expect(run(['tools', 'call', 'everything.get-tiny-image', '--out', out]).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['get-tiny-image-1.png', 'get-tiny-image-2.png']);
  }, 90_000);

  it('without --out the files go to a new temporary folder; --json lists them', () => {
    const called = run(['--json', 'tools', 'call', 'everything.get-tiny-image']);
    expect(called.code, called.stderr).toBe(0);
    const { files } = JSON.parse(called.stdout) as { files: string[] };
    expect(files).toHaveLength(1);
    const file = files[0] as string;
    expect(file.startsWith(join(tmpdir(), 'mcp-agent-media-'))).toBe(true);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    rmSync(join(file, '..'), { recursive: true, force: true });
    // A result without media writes nothing.
    const echo = run(['--json', 'tools', 'call', 'everything.echo', '--args', '{"message":"hi"}']);
    expect(echo.code, echo.stderr).toBe(0);
    expect(JSON.parse(echo.stdout)).not.toHaveProperty('files');
  }, 90_000);

  it('exec: a script gets the image whole, and what it returns is written to a file', () => {
    const script = join(out, 'snap.js');
    writeFileSync(
      script,
      `const blocks = await tools.everything['get-tiny-image']({});
       const image = blocks.find((b) => b.type === 'image');
       return { size: image.data.length, image };`,
    );
    const dir = join(out, 'exec');
    const ran = run(['exec', script, '--out', dir]);
    expect(ran.code, ran.stderr).toBe(0);
    const printed = JSON.parse(ran.stdout) as { size: number; image: { file: string } };
    expect(printed.size).toBeGreaterThan(1_000);
    expect(printed.image.file).toBe(join(dir, 'snap-1.png'));
    expect(existsSync(printed.image.file)).toBe(true);
  }, 90_000);
});

describe('mcp-agent resources', () => {
  it("lists a server's resources and templates, and reads text whole and binary to a file", () => {
    const listed = run(['--json', 'resources', 'list', 'everything']);
    expect(listed.code, listed.stderr).toBe(0);
    const { servers } = JSON.parse(listed.stdout) as {
      servers: {
        server: string;
        resources: { uri: string }[];
        templates: { uriTemplate: string }[];
      }[];
    };
    expect(servers[0]?.server).toBe('everything');
    expect(servers[0]?.resources.map((r) => r.uri)).toContain(
      'demo://resource/static/document/architecture.md',
    );
    expect(servers[0]?.templates.map((t) => t.uriTemplate)).toContain(
      'demo://resource/dynamic/blob/{resourceId}',
    );
    const text = run(['resources', 'read', 'everything', 'demo://resource/dynamic/text/4']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Resource 4: This is a plaintext resource created at /);
    const dir = join(out, 'resources');
    const blob = run([
      'resources',
      'read',
      'everything',
      'demo://resource/dynamic/blob/3',
      '--out',
      dir,
    ]);
    expect(blob.code, blob.stderr).toBe(0);
    const printed = JSON.parse(blob.stdout) as { resource: { file: string; bytes: number } }[];
    const file = printed[0]?.resource.file as string;
    expect(file).toBe(join(dir, '3-1.txt')); // everything's blobs are base64 text/plain
    expect(readFileSync(file).length).toBe(printed[0]?.resource.bytes);
    expect(blob.stdout).not.toContain('"blob"');
  }, 90_000);

  it('RES-01 resource lists and reads are counted in usage and held to the hourly call quota, like tool calls', () => {
    const own = cliHome('mcp-cli-res-quota-');
    try {
      expect(
        own.run([
          'servers',
          'add',
          'everything',
          '--command',
          process.execPath,
          '--arg',
          npmServers.everything,
        ]).code,
      ).toBe(0);
      expect(own.run(['usage', 'quota', 'set', '--max-calls-per-hour', '2']).code).toBe(0);
      expect(own.run(['--json', 'resources', 'list', 'everything']).code).toBe(0);
      const doc = 'demo://resource/static/document/architecture.md';
      expect(own.run(['resources', 'read', 'everything', doc]).code).toBe(0);
      const refused = own.run(['resources', 'read', 'everything', doc]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/maxCallsPerHour is 2/);
      const usage = JSON.parse(own.run(['--json', 'usage']).stdout) as {
        usage: { totals: { toolCalls: number } };
      };
      expect(usage.usage.totals.toolCalls).toBe(2);
    } finally {
      rmSync(own.home, { recursive: true, force: true });
    }
  }, 90_000);

  it('TEN-01 a server the user does not have is refused, exit 3, naming the server', () => {
    const other = cliHome('mcp-cli-media-other-');
    try {
      const refused = other.run([
        'resources',
        'read',
        'everything',
        'demo://resource/dynamic/text/1',
      ]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/server "everything" is (not )?connected for this user/i);
      // Nor through the first user's home under another user's name.
      const asBob = run(['--user', 'bob', 'resources', 'list', 'everything']);
      expect(asBob.code).toBe(3);
      expect(asBob.stderr).toMatch(/server "everything" is (not )?connected for this user/i);
    } finally {
      rmSync(other.home, { recursive: true, force: true });
    }
  }, 90_000);
});

describe('mcp-agent tools call of a long call', () => {
  it('shows progress on standard error, one line per notification off a terminal', () => {
    const called = run([
      'tools',
      'call',
      'everything.trigger-long-running-operation',
      '--args',
      '{"duration": 1, "steps": 3}',
    ]);
    expect(called.code, called.stderr).toBe(0);
    const lines = called.stderr.split('\n').filter((line) => line.startsWith('progress '));
    expect(lines).toEqual([
      'progress everything.trigger-long-running-operation: 1/3 (33%)',
      'progress everything.trigger-long-running-operation: 2/3 (67%)',
      'progress everything.trigger-long-running-operation: 3/3 (100%)',
    ]);
    expect(called.stdout).toMatch(/Long running operation completed/);
  }, 90_000);

  it('--timeout and a server added with --timeout: progress resets the timeout, silence past it fails', () => {
    const long = (server: string, args: string, extra: string[] = []) =>
      run(['tools', 'call', `${server}.trigger-long-running-operation`, '--args', args, ...extra]);
    // 4 s without a word, past a 2 s timeout; the same 4 s in steps of half a second pass.
    const silent = long('everything', '{"duration": 4, "steps": 1}', ['--timeout', '2']);
    expect(silent.code).toBe(1);
    expect(silent.stderr).toMatch(/timed out/i);
    const added = run([
      'servers',
      'add',
      'slow',
      '--command',
      process.execPath,
      '--arg',
      npmServers.everything,
      '--timeout',
      '2',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const serverSilent = long('slow', '{"duration": 4, "steps": 1}');
    expect(serverSilent.code).toBe(1);
    expect(serverSilent.stderr).toMatch(/timed out/i);
    const steady = long('slow', '{"duration": 4, "steps": 8}');
    expect(steady.code, steady.stderr).toBe(0);
  }, 120_000);
});

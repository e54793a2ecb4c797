import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// End to end: the built binary, spawned as a user would run it, against real MCP servers.
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const memory = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
);
const home = mkdtempSync(join(tmpdir(), 'mcp-cli-'));
const env = {
  ...process.env,
  MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
  MCP_AGENT_USER: 'cli-user',
};

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, '--home', home, ...args], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const added = run(
    'servers',
    'add',
    'memory',
    '--command',
    process.execPath,
    '--arg',
    memory,
    '--env',
    `MEMORY_FILE_PATH=${join(home, 'memory.jsonl')}`,
  );
  expect(added).toMatchObject({ code: 0, stdout: 'added memory (stdio) for cli-user\n' });
}, 90_000);

// Each case starts the binary several times, and each start loads the whole stack: on a loaded
// 2-core machine that is seconds per start, so the cases get a minute, not the default 20 s.
describe('mcp-agent (the built binary)', { timeout: 90_000 }, () => {
  it('servers list and status show the server, ready, with its tool count', () => {
    expect(run('servers', 'list').stdout).toMatch(/memory\s+user\s+stdio/);
    const status = run('servers', 'status');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/SERVER\s+STATUS\s+TOOLS/);
    expect(status.stdout).toMatch(/memory\s+ready\s+9/);
    const json = JSON.parse(run('--json', 'servers', 'status').stdout) as {
      serverId: string;
      status: string;
    }[];
    expect(json[0]).toMatchObject({ serverId: 'memory', status: 'ready' });
  });

  it('tools search, describe and call', () => {
    expect(
      run('tools', 'search', 'read', 'the', 'knowledge', 'graph').stdout.split('\n')[0],
    ).toMatch(/^memory\.read_graph/);
    const described = JSON.parse(run('tools', 'describe', 'memory.create_entities').stdout)[0];
    expect(described).toMatchObject({
      tool_id: 'memory.create_entities',
      call_signature:
        'memory.create_entities({ entities: { name: string, entityType: string, observations: string[] }[] })',
    });
    expect(JSON.parse(run('tools', 'describe', '--full', 'memory.create_entities').stdout)).toEqual(
      [described],
    );
    const created = run(
      'tools',
      'call',
      'memory.create_entities',
      '--args',
      JSON.stringify({
        entities: [{ name: 'Ada', entityType: 'person', observations: ['first programmer'] }],
      }),
    );
    expect(created.code).toBe(0);
    const argsFile = join(home, 'args.json');
    writeFileSync(argsFile, '{}');
    expect(
      JSON.parse(run('tools', 'call', 'memory.read_graph', '--args', `@${argsFile}`).stdout)
        .entities[0].name,
    ).toBe('Ada');
  });

  it('tools search with several queries answers each, and says when nothing connected fits', () => {
    const text = run('tools', 'search', 'read the knowledge graph', 'book a flight to Paris');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^"read the knowledge graph"\n {2}memory\.read_graph/);
    expect(text.stdout).toMatch(
      /"book a flight to Paris"\nno good match: nothing connected seems to do this/,
    );
    const answer = JSON.parse(
      run('--json', 'tools', 'search', 'read the knowledge graph', 'book a flight to Paris').stdout,
    ) as {
      queries: { matches: { tool_id: string }[]; no_good_match: boolean }[];
      note: string;
    };
    expect(answer.queries[0]).toMatchObject({ no_good_match: false });
    expect(answer.queries[0]?.matches[0]?.tool_id).toBe('memory.read_graph');
    expect(answer.queries[1]).toMatchObject({ no_good_match: true, matches: [] });
    expect(answer.note).toMatch(/nothing connected seems to do this/);
  });

  it('exec runs a JavaScript or TypeScript file in the sandbox', () => {
    const script = join(home, 'count.ts');
    writeFileSync(
      script,
      'const graph: { entities: unknown[] } = await tools.memory.read_graph({});\nconsole.log("counting");\nreturn graph.entities.length;',
    );
    const result = run('exec', script);
    expect(result).toMatchObject({ code: 0, stdout: '1\n' });
    expect(result.stderr).toContain('counting');
  });

  it('bad input gets one readable line and a meaningful exit code', () => {
    const unknown = run('frobnicate');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toBe(
      'mcp-agent: unknown command "frobnicate". Run "mcp-agent --help".\n',
    );
    const badJson = run('tools', 'call', 'memory.read_graph', '--args', '{oops');
    expect(badJson.code).toBe(2);
    expect(badJson.stderr.trim().split('\n')).toHaveLength(1);
    expect(badJson.stderr).toMatch(/--args is not valid JSON/);
    const badArgs = run('tools', 'call', 'memory.create_entities', '--args', '{"entities": 5}');
    expect(badArgs.code).toBe(2);
    expect(badArgs.stderr).toMatch(
      /Invalid arguments for memory.create_entities: \/entities expected must be array/,
    );
    const unknownTool = run('--json', 'tools', 'call', 'memory.nope', '--args', '{}');
    expect(unknownTool.code).toBe(3);
    expect(JSON.parse(unknownTool.stdout)).toEqual({
      error: { code: 'TOOL_NOT_FOUND', message: expect.stringMatching(/no tool "nope"/) },
    });
    const badConfig = run('servers', 'add', 'Bad.Id', '--command', 'x');
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toMatch(/id: must be 1-64 lowercase/);
  });

  it('a server that fails shows in status with its error, exit code 4', () => {
    expect(run('servers', 'add', 'broken', '--command', '/nonexistent/mcp-server').code).toBe(0);
    const status = run('servers', 'status');
    expect(status.code).toBe(4);
    expect(status.stdout).toMatch(/broken\s+failed\s+-\s+.*ENOENT/);
    expect(run('tools', 'call', 'broken.anything', '--args', '{}').code).toBe(4);
    expect(run('servers', 'remove', 'broken')).toMatchObject({
      code: 0,
      stdout: 'removed broken\n',
    });
    expect(run('servers', 'remove', 'broken').code).toBe(3);
  });

  it('--help for every command, with examples', () => {
    for (const command of ['servers', 'auth', 'tools', 'exec', 'run', 'serve']) {
      const help = run(command, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`mcp-agent ${command}`);
    }
    expect(run('tools', '--help').stdout).toContain('Examples:');
  });
});

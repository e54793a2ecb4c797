import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedOpenAIServer } from '@mcp-agent/agent/testing';

// End to end: the built binary, spawned as a user would run it, against real MCP servers.
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const memory = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
);
const home = mkdtempSync(join(tmpdir(), 'mcp-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const env = {
  ...process.env,
  MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
  MCP_AGENT_USER: 'cli-user',
};

// For a child that talks to a scripted server of this process: the event loop must stay free.
function runAsync(
  extraEnv: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, '--home', home, ...args],
      { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : ((error.code as number | undefined) ?? 1),
          stdout,
          stderr,
        }),
    );
  });
}

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
      /"book a flight to Paris"\nno good match: no connected tool says this in these words\.\nClosest:\n {2}memory\.\w+ +0\.\d\d +\S/,
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
    expect(answer.note).toMatch(/Read the closest tools' descriptions/);
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

  it('run on an OpenAI-compatible endpoint named by MCP_AGENT_MODEL, then usage shows the task by day, server and model', async () => {
    const model = await startScriptedOpenAIServer([
      { tool_calls: [{ name: 'describe_tools', arguments: { tool_ids: ['memory.read_graph'] } }] },
      {
        tool_calls: [
          { name: 'call_tool', arguments: { tool_id: 'memory.read_graph', arguments: {} } },
        ],
        usage: { prompt_tokens: 1_300, completion_tokens: 40, cached_tokens: 1_000 },
      },
      { content: 'Ada is in the graph.' },
    ]);
    try {
      const task = await runAsync(
        { MCP_AGENT_MODEL: 'openai:gpt-6.1-sol', OPENAI_BASE_URL: model.url },
        'run',
        'Who is in the knowledge graph?',
      );
      expect(task).toMatchObject({ code: 0, stdout: 'Ada is in the graph.\n' });
      expect(model.requests[0]?.body.model).toBe('gpt-6.1-sol');
    } finally {
      await model.close();
    }
    const shown = run('usage', '--days', '1');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /^usage of cli-user, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(UTC days\)/,
    );
    expect(shown.stdout).toMatch(/SERVER\s+CALLS\s+FAILED\s+TOTAL MS\n(.*\n)*memory\s+\d+\s+\d+/);
    // Input and cached tokens apart, as in the day table.
    expect(shown.stdout).toMatch(/gpt-6\.1-sol\s+3\s+500\s+1000\s+80\s+\$0\.001\d+/);
    console.info(shown.stdout);
    const json = JSON.parse(run('--json', 'usage').stdout) as {
      usage: { models: { model: string; requests: number; estimatedCostUsd: number }[] };
    };
    // 3 requests: 500 uncached + 1,000 cached in, 80 out, at the default gpt-6.1-sol prices.
    expect(json.usage.models).toEqual([
      expect.objectContaining({
        model: 'gpt-6.1-sol',
        requests: 3,
        inputTokens: 500,
        cacheReadTokens: 1_000,
        outputTokens: 80,
        estimatedCostUsd: (500 * 2 + 1_000 * 0.1 + 80 * 10) / 1_000_000,
      }),
    ]);
  });

  it('run on a model endpoint that refuses the key says which variable to set, not an MCP server sign-in; exit 4', async () => {
    const model = await startScriptedOpenAIServer([
      { error: { status: 401, message: 'Incorrect API key provided.' } },
    ]);
    try {
      const task = await runAsync(
        {
          MCP_AGENT_MODEL: 'openai:gpt-6.1-sol',
          OPENAI_API_KEY: 'wrong-key-not-secret',
          OPENAI_BASE_URL: model.url,
        },
        'run',
        'Who is in the knowledge graph?',
      );
      expect(task.code).toBe(4);
      expect(task.stderr).toMatch(
        /^mcp-agent: The model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 refused the key from OPENAI_API_KEY \(HTTP 401\): "Incorrect API key provided\."\. Set OPENAI_API_KEY to a key this endpoint accepts\.\n$/,
      );
      expect(task.stderr).not.toMatch(/auth login|wrong-key/);
    } finally {
      await model.close();
    }
  });

  it('TEN-11 usage quota set: the call past maxCallsPerHour exits 5 saying which limit and when it resets', () => {
    expect(run('usage', 'quota', 'set', '--max-calls-per-hour', 'many').code).toBe(2);
    const set = run('usage', 'quota', 'set', '--max-calls-per-hour', '1');
    expect(set).toMatchObject({ code: 0, stdout: 'quotas of cli-user: maxCallsPerHour 1\n' });
    try {
      expect(run('tools', 'call', 'memory.read_graph', '--args', '{}').code).toBe(0);
      const refused = run('tools', 'call', 'memory.read_graph', '--args', '{}');
      expect(refused.code).toBe(5);
      expect(refused.stderr).toMatch(
        /^mcp-agent: Quota reached: maxCallsPerHour is 1 \(used 1 this hour\)\. It resets at \S+Z \(in \d+ min\)\. \(see "mcp-agent usage"\)\n$/,
      );
      console.info(refused.stderr);
      expect(run('usage').stdout).toMatch(/quotas: maxCallsPerHour 1\n {2}this hour: 1 tool calls/);
    } finally {
      expect(run('usage', 'quota', 'set', '--max-calls-per-hour', 'default').stdout).toBe(
        'quotas of cli-user: none\n',
      );
    }
  });

  it('--help for every command, with examples', () => {
    for (const command of ['servers', 'auth', 'tools', 'exec', 'run', 'serve', 'usage']) {
      const help = run(command, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`mcp-agent ${command}`);
    }
    expect(run('tools', '--help').stdout).toContain('Examples:');
  });
});

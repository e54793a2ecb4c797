import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createContext, type JsonValue } from '@mcp-agent/core';
import { reassemble } from '@mcp-agent/execution/testing';
import { wireModeFrom } from '@mcp-agent/wire';
import { ALICE_TOKEN, BOB_TOKEN, text, useTestGateway } from './gateway-test-helpers.js';

const gateway = useTestGateway();
const connect = (token: string | undefined) => gateway.connect(token);

describe('the MCP gateway over streamable HTTP (multi-tenant)', () => {
  it('offers the meta-tools with instructions, and walks search → describe → call → run_code', async () => {
    const client = await connect(ALICE_TOKEN);
    const listed = (await client.listTools()).tools;
    // search_tools says what it searches: this user's servers and what each is for (#29).
    expect(listed.find((t) => t.name === 'search_tools')?.description).toMatch(
      /Searches the tools of the servers connected for you: .*github/,
    );
    expect(listed.map((t) => t.name)).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
      'run_code',
      'read_result',
      'read_resource',
    ]);
    expect(client.getInstructions()).toMatch(/search_tools .* describe_tools .* call_tool/);
    expect(
      text(await client.callTool({ name: 'search_tools', arguments: { query: 'open an issue' } }))
        .queries[0].matches[0].tool_id,
    ).toBe('github.create_issue');
    expect(
      text(
        await client.callTool({
          name: 'describe_tools',
          arguments: { tool_ids: ['github.create_issue'] },
        }),
      ).tools[0].call_signature,
    ).toMatch(/title: string/);
    const called = text(
      await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'github.create_issue', arguments: { title: 'Bug' } },
      }),
    );
    expect(called.result).toContain('"title":"Bug"');
    const invalid = await client.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'github.create_issue', arguments: {} },
    });
    expect(invalid.isError).toBe(true);
    expect(text(invalid).error.code).toBe('INVALID_ARGUMENTS');
    const ran = text(
      await client.callTool({
        name: 'run_code',
        arguments: {
          code: 'const r = await tools.github.create_issue({ title: "x" }); return [typeof r, r.arguments.title];',
        },
      }),
    );
    // Code gets the whole result, its JSON text parsed.
    expect(ran.result).toEqual(['object', 'x']);
    await client.close();
  });

  it('tells the client when what search_tools searches has changed (tools/list_changed, #29)', async () => {
    const client = await connect(ALICE_TOKEN);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    // The session has not said what it searches yet: the first search does, and says it changed.
    await client.callTool({ name: 'search_tools', arguments: { query: 'open an issue' } });
    await changed;
    const listed = (await client.listTools()).tools.find((t) => t.name === 'search_tools');
    expect(listed?.description).toMatch(/connected for you: .*github \(\d+ tools/);
    await client.close();
  });

  it('search_tools browses a server with servers and no query, names best_servers, and keeps to the user', async () => {
    const client = await connect(ALICE_TOKEN);
    expect(client.getInstructions()).toMatch(
      /When a search misses .* browse that server: search_tools with "servers" and no query lists all its tools/,
    );
    const found = text(
      await client.callTool({ name: 'search_tools', arguments: { query: 'post to a channel' } }),
    );
    expect(found.queries[0].best_servers[0]).toBe('slack');
    const page = text(
      await client.callTool({ name: 'search_tools', arguments: { servers: ['slack', 'github'] } }),
    );
    expect(page).toEqual({
      servers: [
        {
          server: 'slack',
          tool_count: 1,
          tools: ['slack.post_message: Post a message to a Slack channel'],
        },
        {
          server: 'github',
          tool_count: 1,
          tools: ['github.create_issue: Create an issue in a repository'],
        },
      ],
      shown: { from: 1, to: 2, of: 2 },
      note: expect.stringMatching(/^Every tool of slack, github \(2 in all\)/),
    });
    // Bob cannot browse Alice's server: unknown to him, and his own are the ones offered.
    const bob = await connect(BOB_TOKEN);
    const refused = await bob.callTool({
      name: 'search_tools',
      arguments: { servers: ['github'] },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused).error).toEqual({
      code: 'SERVER_NOT_FOUND',
      message: expect.stringMatching(/^Unknown server "github": .* Your servers: secrets\./),
    });
    await bob.close();
    await client.close();
  });

  it('search_tools takes several queries in one call: each its own matches, tools once under their server, no good match said', async () => {
    const client = await connect(ALICE_TOKEN);
    const answer = text(
      await client.callTool({
        name: 'search_tools',
        arguments: {
          queries: ['open an issue', 'post a message to a channel', 'create an issue', 'horoscope'],
          limit: 3,
        },
      }),
    );
    const top = (i: number) => answer.queries[i].matches[0];
    expect(answer.queries.map((q: { query: string }) => q.query)).toEqual([
      'open an issue',
      'post a message to a channel',
      'create an issue',
      'horoscope',
    ]);
    expect(top(0).tool_id).toBe('github.create_issue');
    expect(top(1).tool_id).toBe('slack.post_message');
    expect(top(2).tool_id).toBe('github.create_issue');
    for (const i of [0, 1, 2]) expect(top(i).relevance).toBeGreaterThan(0.15);
    // Nothing connected reads horoscopes: said, instead of offering a tool that does something else.
    expect(answer.queries[3]).toMatchObject({
      query: 'horoscope',
      no_good_match: true,
      matches: [],
    });
    expect(answer.note).toMatch(/No connected tool's text answers "horoscope"/);
    // github.create_issue, found twice, is described once, under its server.
    const listed = answer.servers.flatMap((s: { server: string; tools: { tool_id: string }[] }) =>
      s.tools.map((t) => `${s.server}:${t.tool_id}`),
    );
    expect(listed.filter((t: string) => t === 'github:github.create_issue')).toHaveLength(1);
    expect(listed).toContain('slack:slack.post_message');

    const both = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'open an issue', queries: ['post a message'] },
    });
    expect(both.isError).toBe(true);
    expect(text(both).error).toEqual({
      code: 'INVALID_ARGUMENTS',
      message: expect.stringMatching(/give "query" or "queries", not both/),
    });
    const tooMany = await client.callTool({
      name: 'search_tools',
      arguments: { queries: Array.from({ length: 9 }, (_, i) => `step ${i}`) },
    });
    expect(tooMany.isError).toBe(true);
    expect(text(tooMany).error.message).toMatch(/queries: .*8/);
    await client.close();
  });

  it('forwards the upstream server progress to the client, and its cancellation upstream', async () => {
    const everything = fileURLToPath(
      new URL(
        '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
        import.meta.url,
      ),
    );
    await gateway.stack.registry.addServer(createContext({ userId: 'alice' }), {
      id: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [everything],
    });
    const client = await connect(ALICE_TOKEN);
    await client.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['everything.trigger-long-running-operation'] },
    });
    const progress: number[] = [];
    const result = await client.callTool(
      {
        name: 'call_tool',
        arguments: {
          tool_id: 'everything.trigger-long-running-operation',
          arguments: { duration: 1, steps: 3 },
        },
      },
      undefined,
      { onprogress: (p) => progress.push(p.progress), resetTimeoutOnProgress: true },
    );
    expect(result.isError).toBeFalsy();
    if (wireModeFrom(process.env) === 'lanes') expect(progress).toEqual([1, 2, 3]);
    // MCP_AGENT_WIRE=sdk: the SDK client of the pool may drop the last progress when it arrives
    // in the same read as the result (packages/wire/README.md lists it); what arrives is in order.
    else expect(progress).toEqual([1, 2, 3].slice(0, Math.max(2, progress.length)));
    const controller = new AbortController();
    const pending = client.callTool(
      {
        name: 'call_tool',
        arguments: {
          tool_id: 'everything.trigger-long-running-operation',
          arguments: { duration: 30, steps: 3 },
        },
      },
      undefined,
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toThrow(/abort/i);
    await client.close();
  });

  it('an oversized result is cut for the client and read back in full through read_result', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({
      id: i,
      email: `user${i}@example.com`,
      bio: `Bio number ${i}. `.repeat(20),
    }));
    await gateway.addScripted(
      'alice',
      'warehouse',
      [{ name: 'export_rows', description: 'Export every row', inputSchema: { type: 'object' } }],
      { export_rows: { content: [{ type: 'text', text: JSON.stringify({ rows }) }] } },
    );
    const client = await connect(ALICE_TOKEN);
    const call = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args });
    await call('describe_tools', { tool_ids: ['warehouse.export_rows'] });
    const cut = text(await call('call_tool', { tool_id: 'warehouse.export_rows', arguments: {} }));
    expect(cut.truncated).toBe(true);
    expect(JSON.stringify(cut.result).length).toBeLessThan(JSON.stringify({ rows }).length / 4);
    let reads = 0;
    const whole = await reassemble(cut.result as JsonValue, {
      read: async (pointer) => {
        reads += 1;
        const page = text(await call('read_result', { ...pointer }));
        if (page.error !== undefined) throw new Error(page.error.message);
        return page.value as JsonValue;
      },
      whole: () => {
        throw new Error('no media here');
      },
    });
    expect(whole).toEqual({ rows });
    expect(reads).toBeGreaterThan(1);
    // Another tenant cannot read it.
    const bob = await connect(BOB_TOKEN);
    const stolen = text(
      await bob.callTool({ name: 'read_result', arguments: { id: cut.observation_id } }),
    );
    expect(stolen.error.code).toBe('NOT_FOUND');
    await bob.close();
    await client.close();
  });

  it('refuses a call to a tool it has not described, exactly as the agent does', async () => {
    const client = await connect(ALICE_TOKEN);
    const call = (name: string, args: Record<string, unknown>) =>
      client.callTool({ name, arguments: args });
    const direct = await call('call_tool', {
      tool_id: 'github.create_issue',
      arguments: { title: 'x' },
    });
    expect(direct.isError).toBe(true);
    expect(text(direct).error).toEqual({
      code: 'INVALID_ARGUMENTS',
      message:
        'Describe github.create_issue with describe_tools before calling it (search_tools finds tool ids).',
    });
    const fromCode = text(
      await call('run_code', { code: 'return await tools.github.create_issue({ title: "x" });' }),
    );
    expect(fromCode.error.message).toMatch(/describe/i);
    expect(fromCode.error.message).not.toMatch(/Cannot read properties/);
    await client.close();
  });

  it("counts a session's tool calls as one task's usage, and each session as its own", async () => {
    const recorded = vi.spyOn(gateway.stack.registry, 'recordToolCall');
    try {
      const callTwice = async (times: number) => {
        const client = await connect(ALICE_TOKEN);
        await client.callTool({
          name: 'describe_tools',
          arguments: { tool_ids: ['github.create_issue'] },
        });
        for (let i = 0; i < times; i++) {
          const called = await client.callTool({
            name: 'call_tool',
            arguments: { tool_id: 'github.create_issue', arguments: { title: `t${i}` } },
          });
          expect(called.isError).toBeFalsy();
        }
        await client.close();
      };
      await callTwice(2);
      await callTwice(1);
      const tasks = recorded.mock.calls.map(([, record]) => record.taskId);
      expect(tasks).toHaveLength(3);
      expect(tasks[0]).toMatch(/^gateway-[0-9a-f-]{36}$/);
      expect(tasks[1]).toBe(tasks[0]);
      expect(tasks[2]).not.toBe(tasks[0]);
      const usage = await gateway.stack.registry.taskUsage(
        createContext({ userId: 'alice' }),
        tasks[0] as string,
      );
      expect(usage.servers).toEqual([
        { server: 'github', calls: 2, errors: 0, durationMs: expect.any(Number) as number },
      ]);
    } finally {
      recorded.mockRestore();
    }
  });
});

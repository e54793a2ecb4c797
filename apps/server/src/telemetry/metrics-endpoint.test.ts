import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverFixtures } from '@mcp-agent/test-support';
import { startObservedServer, type ObservedServer } from '../testing/observed-server.js';

let server: ObservedServer;

beforeAll(async () => {
  server = await startObservedServer({ fixtures: serverFixtures });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const scrape = (token: string | undefined) =>
  fetch(`${server.url}/metrics`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });

/** The value of the series `name` whose labels include every one of `labels`. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      return Number(match[4]);
  }
  return undefined;
}

describe('/metrics (Prometheus text, operator token)', () => {
  it('after real calls, shows the per-server series with the right counts', async () => {
    const alice = await server.gatewayClient('alice');
    await alice.callTool({
      name: 'describe_tools',
      arguments: { tool_ids: ['github.list_issues', 'github.close_issue'] },
    });
    for (let i = 0; i < 3; i++)
      await alice.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } },
      });
    // A tool error from the server, and a call refused before any network call.
    await alice.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'github.close_issue', arguments: { issue: 7 } },
    });
    await alice.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'github.close_issue', arguments: { issue: 'seven' } },
    });
    await alice.callTool({
      name: 'run_code',
      arguments: { code: 'await tools.github.list_issues({ repo: "a/b" }); return 1;' },
    });
    const bob = await server.gatewayClient('bob');
    await bob.callTool({ name: 'describe_tools', arguments: { tool_ids: ['weather.forecast'] } });
    await bob.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'weather.forecast', arguments: { city: 'Oslo' } },
    });

    const response = await scrape(server.tokens.operator);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const github = { server: 'github' };
    // Three direct calls and one from code reached the server and answered; one tool error.
    expect(series(text, 'mcp_agent_connector_calls_total', { ...github, outcome: 'ok' })).toBe(4);
    expect(
      series(text, 'mcp_agent_connector_calls_total', { ...github, outcome: 'tool_error' }),
    ).toBe(1);
    expect(
      series(text, 'mcp_agent_connector_errors_total', { ...github, error_type: 'tool_error' }),
    ).toBe(1);
    expect(series(text, 'mcp_agent_connector_duration_count', { ...github, outcome: 'ok' })).toBe(
      4,
    );
    expect(
      series(text, 'mcp_agent_connector_calls_total', { server: 'weather', outcome: 'ok' }),
    ).toBe(1);
    // The gateway connected every server first: each call reused an open, ready session.
    expect(
      series(text, 'mcp_agent_connector_acquisitions_total', { ...github, reused: 'true' }),
    ).toBe(5);
    expect(
      series(text, 'mcp_agent_connector_acquisitions_total', { ...github, reused: 'false' }),
    ).toBeUndefined();
    expect(series(text, 'mcp_agent_connector_sessions', { ...github, status: 'ready' })).toBe(1);
    expect(series(text, 'mcp_agent_connector_sessions', { server: 'jira', status: 'failed' })).toBe(
      1,
    );
    // The gateway's own requests, per meta-tool, and the HTTP requests they arrived on.
    expect(
      series(text, 'mcp_agent_gateway_requests_total', {
        mcp_method_name: 'tools/call',
        gen_ai_tool_name: 'call_tool',
        outcome: 'ok',
      }),
    ).toBe(4);
    expect(
      series(text, 'mcp_agent_gateway_requests_total', {
        gen_ai_tool_name: 'call_tool',
        outcome: 'tool_error',
      }),
    ).toBe(2);
    // Alice: initialize and 7 calls; Bob: initialize and 2 calls (their notifications get 202).
    expect(
      series(text, 'http_server_request_duration_count', {
        http_route: '/mcp',
        http_request_method: 'POST',
        http_response_status_code: '200',
      }),
    ).toBe(11);
    expect(series(text, 'mcp_agent_sandbox_runs_total', { outcome: 'ok' })).toBe(1);
    expect(series(text, 'mcp_agent_process_memory', { type: 'rss' })).toBeGreaterThan(1e6);
    // Never a user id, a tool argument or a result.
    for (const secret of ['alice', 'bob', 'acme/app', 'Oslo', 'issue is locked'])
      expect(text).not.toContain(secret);
  }, 60_000);

  it('counts a task, its model tokens per (hashed) tenant, and HTTP requests by route pattern', async () => {
    server.model.push({ content: [{ type: 'text', text: 'Nothing to do.' }] });
    const started = await fetch(`${server.url}/v1/tasks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.tokens.alice}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ task: 'Say hello' }),
    });
    const { id } = (await started.json()) as { id: string };
    for (;;) {
      const task = (await (
        await fetch(`${server.url}/v1/tasks/${id}`, {
          headers: { authorization: `Bearer ${server.tokens.alice}` },
        })
      ).json()) as { status: string };
      if (task.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const text = await (await scrape(server.tokens.operator)).text();
    expect(series(text, 'mcp_agent_tasks_total', { status: 'completed' })).toBe(1);
    const input = text
      .split('\n')
      .find(
        (line) => line.startsWith('mcp_agent_model_tokens_total') && line.includes('type="input"'),
      );
    expect(input).toMatch(/mcp_agent_tenant="[0-9a-f]{16}"/);
    expect(input).toMatch(/gen_ai_request_model="scripted"/);
    expect(Number(input?.split(' ').at(-1))).toBe(100);
    // Routes are patterns: the task id is not a label.
    expect(
      series(text, 'http_server_request_duration_count', {
        http_route: '/v1/tasks/:id',
        http_request_method: 'GET',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(id);
  }, 60_000);

  it('answers only the operator token: 401 without a token or with a tenant’s', async () => {
    const none = await scrape(undefined);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    expect((await scrape(server.tokens.alice)).status).toBe(401);
    expect((await scrape(`${server.tokens.operator}x`)).status).toBe(401);
  });
});

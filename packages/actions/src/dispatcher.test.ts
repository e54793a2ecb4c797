import { describe, expect, it } from 'vitest';
import { MemoryObservationStore } from '@mcp-agent/execution';
import {
  addScripted,
  alice,
  bob,
  dispatcher,
  expectError,
  githubScript,
  serverCalls,
  stack,
  useDispatchStack,
} from './dispatch-test-helpers.js';
import type { DispatchTarget } from './dispatcher.js';

useDispatchStack();

describe('dispatchTool', () => {
  it('validates, calls through the pool and returns data with meta', async () => {
    const response = await dispatcher().dispatchTool(alice, 'github.create_issue', {
      repo: 'acme/app',
      title: 'Bug',
    });
    expect(response).toMatchObject({
      ok: true,
      data: JSON.stringify({ tool: 'create_issue', arguments: { repo: 'acme/app', title: 'Bug' } }),
      meta: { toolId: 'github.create_issue', truncated: false },
    });
    expect(response.meta.durationMs).toBeGreaterThan(0);
    expect(
      await dispatcher().dispatchTool(
        alice,
        { server: 'github', tool: 'create_issue' },
        { repo: 'a/b', title: 't' },
      ),
    ).toMatchObject({ ok: true });
    // `provider`, the target's name before issue 31, still names the server.
    const old = { provider: 'github', tool: 'create_issue' } as unknown as DispatchTarget;
    expect(await dispatcher().dispatchTool(alice, old, { repo: 'a/b', title: 't' })).toMatchObject({
      ok: true,
      meta: { toolId: 'github.create_issue' },
    });
  });

  it.each([
    [
      'a wrong type',
      { repo: 'acme/app', title: 42 },
      /\/title expected must be string, got integer/,
    ],
    [
      'a missing required property',
      { repo: 'acme/app' },
      /\/title expected a value \(required\), got nothing/,
    ],
    [
      'an extra property',
      { repo: 'acme/app', title: 't', owner: 'x' },
      /\/owner expected no such property/,
    ],
    [
      'a value outside the enum',
      { repo: 'acme/app', title: 't', priority: 'urgent' },
      /\/priority expected one of \["low","high"\]/,
    ],
    [
      'a bad format',
      { repo: 'acme/app', title: 't', due: 'tomorrow' },
      /\/due expected must match format "date"/,
    ],
    [
      'a pattern mismatch',
      { repo: 'not a repo', title: 't' },
      /\/repo expected must match pattern/,
    ],
    ['an array instead of an object', ['acme/app'], /must be a JSON object, got an array/],
    [
      'a 10 MB string (BRG-03)',
      { repo: 'acme/app', title: 'x'.repeat(10_000_000) },
      /at most 1000000 are accepted/,
    ],
  ])(
    'BRG-03 rejects %s before any network call, naming path, expected and got',
    async (_name, payload, message) => {
      const response = await dispatcher().dispatchTool(alice, 'github.create_issue', payload);
      expectError(response, 'INVALID_ARGUMENTS', message);
      expect(await serverCalls()).toBe(0);
    },
  );

  it('BRG-03 rejects 10k-level nesting and cycles without blowing the stack', async () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) deep = (deep.next = {}) as Record<string, unknown>;
    expectError(
      await dispatcher().dispatchTool(alice, 'github.recursive', root),
      'INVALID_ARGUMENTS',
      /deeper than 64/,
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expectError(
      await dispatcher().dispatchTool(alice, 'github.recursive', cyclic),
      'INVALID_ARGUMENTS',
    );
    expect(
      await dispatcher().dispatchTool(alice, 'github.recursive', { child: { child: {} } }),
    ).toMatchObject({ ok: true });
    expect(await serverCalls()).toBe(1);
  });

  it('BRG-03 counts objects and arrays alike: 64 levels pass, 65 do not', async () => {
    // The arguments object is level 1; each level below alternates an array and an object.
    const nested = (levels: number): Record<string, unknown> => {
      let value: unknown = {};
      for (let level = levels - 1; level > 1; level--)
        value = level % 2 === 0 ? [value] : { value };
      return { value } as Record<string, unknown>;
    };
    expectError(
      await dispatcher().dispatchTool(alice, 'github.recursive', nested(65)),
      'INVALID_ARGUMENTS',
      /deeper than 64/,
    );
    const passed = await dispatcher().dispatchTool(alice, 'github.recursive', nested(64));
    expect(passed.ok === false ? passed.error.message : '').not.toMatch(/deeper than/);
  });

  it('a tool whose schema does not compile is refused with a clear error', async () => {
    expectError(
      await dispatcher().dispatchTool(alice, 'github.broken_schema', {}),
      'TOOL_EXECUTION_FAILED',
      /does not compile/,
    );
  });

  it('unknown server, unknown tool, malformed id and an unavailable server each get their code', async () => {
    const d = dispatcher();
    expectError(
      await d.dispatchTool(alice, 'gitlab.create_issue', {}),
      'SERVER_NOT_FOUND',
      /not connected/,
    );
    expectError(
      await d.dispatchTool(alice, 'github.create_isue', {}),
      'TOOL_NOT_FOUND',
      /no tool "create_isue".*search_tools/,
    );
    expectError(await d.dispatchTool(alice, 'no-dot', {}), 'INVALID_ARGUMENTS', /Invalid tool id/);
    expectError(
      await d.dispatchTool(bob, 'github.create_issue', { repo: 'a/b', title: 't' }),
      'SERVER_NOT_FOUND',
    );
    await stack.registry.recordState(alice, 'github', { status: 'failed', lastError: 'HTTP 502' });
    expectError(
      await d.dispatchTool(alice, 'github.create_issue', { repo: 'a/b', title: 't' }),
      'NOT_READY',
      /HTTP 502/,
    );
  });

  it('a server isError result becomes TOOL_EXECUTION_FAILED with the server text', async () => {
    expectError(
      await dispatcher().dispatchTool(alice, 'github.fails', {}),
      'TOOL_EXECUTION_FAILED',
      /rate limit at upstream/,
    );
  });

  it('BRG-04 structured content is checked against the output schema', async () => {
    expect(await dispatcher().dispatchTool(alice, 'github.typed', {})).toMatchObject({
      ok: true,
      data: { n: 3 },
    });
    expectError(
      await dispatcher().dispatchTool(alice, 'github.typed_bad', {}),
      'TOOL_EXECUTION_FAILED',
      /violates its output schema: \/n expected must be number/,
    );
  });

  it('cuts big results to the envelope budget and keeps the full result by id', async () => {
    const observations = new MemoryObservationStore();
    const response = await dispatcher({ observations }).dispatchTool(alice, 'github.big', {});
    expect(response.ok).toBe(true);
    expect(response.meta.truncated).toBe(true);
    expect(String(response.ok && response.data)).toMatch(
      / … \[\d+ more chars; read_result id=obs_/,
    );
    expect(observations.get(alice, response.meta.observationId as string)?.value).toBe(
      'lorem ipsum '.repeat(2_000),
    );
  });

  it('sizes a result once and hands its JSON on, to code and while the envelope leaves it whole', async () => {
    const args = { repo: 'acme/app', title: 'Ünïcode "quoted" ✓' };
    const model = await dispatcher().dispatchTool(alice, 'github.create_issue', args);
    if (!model.ok) throw new Error(model.error.message);
    // Exactly what writing the data out again would give, and its UTF-8 bytes.
    expect(model.json?.text).toBe(JSON.stringify(model.data));
    expect(model.json?.bytes).toBe(Buffer.byteLength(JSON.stringify(model.data), 'utf8'));
    // Code gets the whole value and nothing else; a cut result has no JSON of its own yet.
    const code = await dispatcher().dispatchTool(alice, 'github.create_issue', args, {
      caller: 'code',
    });
    expect(code).toMatchObject({ ok: true, data: { tool: 'create_issue', arguments: args } });
    if (!code.ok) throw new Error(code.error.message);
    expect(code.json?.text).toBe(JSON.stringify(code.data));
    // Carried beside the data, not in it: a response written out does not repeat it.
    expect(Object.keys(code)).toEqual(['ok', 'data', 'meta']);
    expect(JSON.stringify(model)).not.toContain('"json"');
    const cut = await dispatcher().dispatchTool(alice, 'github.big', {});
    expect(cut.meta.truncated).toBe(true);
    expect(cut.ok && cut.json).toBeUndefined();
  });

  it('maps legacy parameters (rename, default, drop) before validation', async () => {
    const d = dispatcher({
      mappings: {
        github: {
          send_email: {
            rename: { to: 'recipient_email' },
            defaults: { body: '(empty)' },
            drop: ['legacy_flag'],
          },
        },
      },
    });
    const response = await d.dispatchTool(alice, 'github.send_email', {
      to: 'a@example.com',
      legacy_flag: true,
    });
    expect(response).toMatchObject({
      ok: true,
      data: JSON.stringify({
        tool: 'send_email',
        arguments: { recipient_email: 'a@example.com', body: '(empty)' },
      }),
    });
  });

  it('BRG-01 hostile tool names are reached exactly, and names differing by case stay distinct', async () => {
    const d = dispatcher();
    for (const name of ['__proto__', 'then', 'a"b', 'Send_Email', 'send_email']) {
      const args = name === 'send_email' ? { recipient_email: 'x' } : {};
      const response = await d.dispatchTool(alice, `github.${name}`, args);
      expect(response.ok, name).toBe(true);
      expect(JSON.parse(String(response.ok && response.data)).tool).toBe(name);
    }
    expect(({} as Record<string, unknown>).then).toBeUndefined();
  });

  it('BRG-05 two servers exposing the same tool name are reached separately by namespace', async () => {
    await addScripted(alice, 'mail', { tools: [githubScript.tools[7]] });
    const d = dispatcher();
    const a = await d.dispatchTool(alice, 'github.send_email', { recipient_email: 'x' });
    const b = await d.dispatchTool(alice, 'mail.send_email', { recipient_email: 'y' });
    expect(a.ok && b.ok).toBe(true);
    expect(await serverCalls(alice, 'github')).toBe(1);
    expect(await serverCalls(alice, 'mail')).toBe(1);
  });
});

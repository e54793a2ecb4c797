import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResponse, JsonValue } from '@mcp-agent/core';
import { IsolatedVmSandbox, MemoryObservationStore } from '@mcp-agent/execution';
import { reassemble } from '@mcp-agent/execution/testing';
import { codeToolCaller } from './code-tool-caller.js';
import {
  addNpmServer,
  addScripted,
  alice,
  bob,
  dispatcher,
  expectError,
  stack,
  useDispatchStack,
} from './dispatch-test-helpers.js';
import type { Dispatcher } from './dispatcher.js';

useDispatchStack();

// Tests that start real servers, page through results or run the sandbox get 60 s: a loaded
// 2-core machine makes each of these steps many times slower than an idle one.
let sandbox: IsolatedVmSandbox;
beforeAll(() => {
  sandbox = new IsolatedVmSandbox({ workers: 1 });
});
afterAll(async () => {
  await sandbox.dispose();
});

/** `build(padding)` grown with ASCII padding to exactly `length` characters. */
function exactly(length: number, build: (padding: string) => string): string {
  const text = build('x'.repeat(length - build('').length));
  expect(text).toHaveLength(length);
  return text;
}

// A dbhub-style answer to a three-row SQLite query: 540 characters of JSON text.
const threeRows = JSON.stringify({
  success: true,
  data: {
    rows: [
      {
        id: 1,
        name: 'Ada Lovelace',
        email: 'ada.lovelace@example.com',
        city: 'London',
        plan: 'pro',
        created_at: '2024-01-05T10:12:00Z',
      },
      {
        id: 2,
        name: 'Alan Turing',
        email: 'alan.turing@example.com',
        city: 'Manchester',
        plan: 'free',
        created_at: '2024-02-11T08:30:00Z',
      },
      {
        id: 3,
        name: 'Grace Hopper',
        email: 'grace.hopper@example.com',
        city: 'Arlington',
        plan: 'team',
        created_at: '2024-03-09T16:45:00Z',
      },
    ],
    count: 3,
    columns: ['id', 'name', 'email', 'city', 'plan', 'created_at'],
  },
  message: 'Query executed in 123 ms',
});

// An @eslint/mcp-style report in three text blocks, 1,665 characters once joined.
const reportBlocks = (() => {
  const intro =
    'Here are the results of running ESLint on the provided files. Before doing anything else, you must display the full list to the user:';
  const outro =
    'If the user asked to fix any issues found, proceed in fixing them. If the user did not ask to fix issues found, you must ask the user for confirmation before attempting to fix the issues found.';
  const messages = (padding: string) =>
    JSON.stringify({
      filePath: '/work/project/src/server.js',
      messages: [
        {
          ruleId: 'no-unused-vars',
          severity: 2,
          message: "'req' is defined but never used.",
          line: 12,
          column: 20,
        },
        {
          ruleId: 'no-undef',
          severity: 2,
          message: "'proces' is not defined.",
          line: 30,
          column: 5,
        },
        {
          ruleId: 'eqeqeq',
          severity: 1,
          message: "Expected '===' and instead saw '=='.",
          line: 41,
          column: 14,
        },
        {
          ruleId: 'no-console',
          severity: 1,
          message: 'Unexpected console statement.',
          line: 57,
          column: 3,
        },
        {
          ruleId: 'prefer-const',
          severity: 2,
          message: `'port' is never reassigned. Use 'const' instead.${padding}`,
          line: 3,
          column: 5,
        },
      ],
      errorCount: 3,
      warningCount: 2,
    });
  const middle = exactly(1_665 - intro.length - outro.length - 2, messages);
  return [intro, middle, outro].map((text) => ({ type: 'text', text }));
})();

const rows = Array.from({ length: 1_200 }, (_, i) => ({
  id: i,
  email: `user${i}@example.com`,
  bio: `User ${i} writes about ${'distributed systems '.repeat(i % 7)}and more.`,
}));

const resultsScript = {
  tools: [
    { name: 'query', inputSchema: { type: 'object' } },
    { name: 'lint', inputSchema: { type: 'object' } },
    { name: 'export_rows', inputSchema: { type: 'object' } },
  ],
  results: {
    query: { content: [{ type: 'text', text: threeRows }] },
    lint: { content: reportBlocks },
    export_rows: {
      content: [{ type: 'text', text: JSON.stringify({ rows, total: rows.length }) }],
    },
  },
};

/** Follows every read_result pointer of `data` through the dispatcher, as a model would. */
function readAll(d: Dispatcher, data: JsonValue) {
  const ok = (response: ActionResponse) => {
    if (!response.ok) throw new Error(response.error.message);
    return response.data;
  };
  return reassemble(data, {
    read: async (pointer) => ok(await d.readResult(alice, pointer.id, pointer)),
    whole: async (pointer) => ok(await d.wholeResult(alice, pointer.id, pointer)),
  });
}

describe('results reach the model whole within the budget', () => {
  it('OUT-01 memory.read_graph of a two-entity graph reaches the model unchanged', async () => {
    await addNpmServer(alice, 'memory', 'server-memory');
    const d = dispatcher();
    const created = await d.dispatchTool(alice, 'memory.create_entities', {
      entities: [
        { name: 'Ada', entityType: 'person', observations: ['Wrote the first program'] },
        { name: 'Analytical Engine', entityType: 'machine', observations: ['Designed by Babbage'] },
      ],
    });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    await d.dispatchTool(alice, 'memory.create_relations', {
      relations: [{ from: 'Ada', to: 'Analytical Engine', relationType: 'programmed' }],
    });
    const direct = await stack.pool.callTool(alice, 'memory', 'read_graph', {});
    const response = await d.dispatchTool(alice, 'memory.read_graph', {});
    expect(response).toMatchObject({ ok: true, meta: { truncated: false } });
    expect(response.ok && response.data).toEqual(direct.structuredContent);
    expect(response.ok && response.data).toMatchObject({
      entities: [
        { name: 'Ada', observations: ['Wrote the first program'] },
        { name: 'Analytical Engine', observations: ['Designed by Babbage'] },
      ],
    });
  });

  it('OUT-01 a 540-character three-row JSON result and a 1,665-character lint report are unchanged', async () => {
    await addScripted(alice, 'db', resultsScript);
    const d = dispatcher();
    expect(threeRows).toHaveLength(540);
    expect(await d.dispatchTool(alice, 'db.query', {})).toMatchObject({
      ok: true,
      data: threeRows,
      meta: { truncated: false },
    });
    const report = await d.dispatchTool(alice, 'db.lint', {});
    expect(report).toMatchObject({ ok: true, meta: { truncated: false } });
    const text = String(report.ok && report.data);
    expect(text).toBe(reportBlocks.map((block) => block.text).join('\n'));
    expect(text).toHaveLength(1_665);
    expect(text.match(/"ruleId"/g)).toHaveLength(5);
  });
});

describe('past the budget: structural cuts, and read_result returns the rest', () => {
  it('OUT-03 a long result is cut structurally, parses, and its pointers return the whole across pages', async () => {
    await addScripted(alice, 'db', resultsScript);
    const d = dispatcher({ envelope: { maxTokens: 1_500 } });
    const response = await d.dispatchTool(alice, 'db.export_rows', {});
    expect(response.ok).toBe(true);
    if (!response.ok) return;
    expect(response.meta.truncated).toBe(true);
    const text = JSON.stringify(response.data);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4_500);
    const data = JSON.parse(text) as { rows: JsonValue[]; total: number };
    expect(data.total).toBe(1_200);
    expect(data.rows[0]).toEqual(rows[0]);
    expect(data.rows.at(-1)).toEqual({
      '…': expect.stringMatching(/^\d+ more items \(~\d+ tokens\)$/),
      read_result: { id: response.meta.observationId, path: 'rows', offset: data.rows.length - 1 },
    });
    // Page after page, every item comes back exactly once and whole.
    let pages = 0;
    const counting: Dispatcher = Object.assign(Object.create(d) as Dispatcher, {
      readResult: (...args: Parameters<Dispatcher['readResult']>) => {
        pages += 1;
        return d.readResult(...args);
      },
    });
    expect(await readAll(counting, response.data)).toEqual({ rows, total: 1_200 });
    expect(pages).toBeGreaterThan(10);
  }, 60_000);

  it('images reach the model described with a pointer; the whole image stays readable for a program', async () => {
    await addNpmServer(alice, 'everything', 'server-everything');
    const d = dispatcher();
    const direct = await stack.pool.callTool(alice, 'everything', 'get-tiny-image', {});
    const image = direct.content.find((block) => block.type === 'image') as { data: string };
    const response = await d.dispatchTool(alice, 'everything.get-tiny-image', {});
    expect(response).toMatchObject({ ok: true, meta: { truncated: true } });
    const blocks = (response.ok ? response.data : []) as { type: string; read_result?: object }[];
    const described = blocks.find((block) => block.type === 'image');
    expect(described).toEqual({
      type: 'image',
      mimeType: 'image/png',
      bytes: expect.any(Number),
      read_result: { id: response.meta.observationId, path: expect.stringMatching(/^\[\d\]$/) },
    });
    expect(JSON.stringify(response)).not.toContain(image.data.slice(0, 100));
    const whole = await d.wholeResult(
      alice,
      response.meta.observationId as string,
      described?.read_result as { path: string },
    );
    expect(whole).toMatchObject({
      ok: true,
      data: { type: 'image', mimeType: 'image/png', data: image.data },
    });
  }, 60_000);

  it('OUT-05 for a reader that sees images, the PNG comes back beside the result, and again through read_result', async () => {
    await addNpmServer(alice, 'everything', 'server-everything');
    const d = dispatcher();
    const direct = await stack.pool.callTool(alice, 'everything', 'get-tiny-image', {});
    const image = direct.content.find((block) => block.type === 'image') as { data: string };
    const response = await d.dispatchTool(alice, 'everything.get-tiny-image', {}, { images: true });
    expect(response.ok && response.images).toEqual([
      { mimeType: 'image/png', data: image.data, path: expect.stringMatching(/^\[\d\]$/) },
    ]);
    const blocks = (response.ok ? response.data : []) as { type: string; shown?: string }[];
    expect(blocks.find((block) => block.type === 'image')?.shown).toBe(
      'yes: image 1, attached after this result',
    );
    const path = response.ok ? (response.images?.[0]?.path ?? '') : '';
    const id = response.meta.observationId as string;
    const again = await d.readResult(alice, id, { path, images: true });
    expect(again.ok && again.images?.[0]?.data).toBe(image.data);
    // Past the operator's limit the image is described, saying why.
    const strict = dispatcher({ images: { maxImageBytes: 100 } });
    const described = await strict.dispatchTool(
      alice,
      'everything.get-tiny-image',
      {},
      {
        images: true,
      },
    );
    expect(described.ok && described.images).toBeUndefined();
    expect(JSON.stringify(described.ok ? described.data : null)).toMatch(
      /"shown":"no: \d+ bytes is more than the 100 bytes an image may have to be shown"/,
    );
  }, 60_000);

  it("TEN-01 another tenant's result id gets the same not-found error as an unknown one", async () => {
    await addScripted(alice, 'db', resultsScript);
    const observations = new MemoryObservationStore();
    const d = dispatcher({ observations, envelope: { maxTokens: 1_000 } });
    const response = await d.dispatchTool(alice, 'db.export_rows', {});
    const id = response.meta.observationId as string;
    expect((await d.readResult(alice, id, { path: 'rows[5]' })).ok).toBe(true);
    const theirs = await d.readResult(bob, id, { path: 'rows[5]' });
    const unknown = await d.readResult(bob, 'obs_AAAAAAAAAAAA');
    expectError(theirs, 'NOT_FOUND', /is kept for you.*Call the tool again/);
    expectError(unknown, 'NOT_FOUND');
    const message = (r: ActionResponse, key: string) =>
      r.ok ? '' : r.error.message.replace(key, 'ID');
    expect(message(theirs, id)).toBe(message(unknown, 'obs_AAAAAAAAAAAA'));
    expectError(await d.wholeResult(bob, id), 'NOT_FOUND', /is kept for you/);
    expect(JSON.stringify(theirs)).not.toContain('user5@example.com');
    // The owner's bad path is named, with what is there instead.
    expectError(
      await d.readResult(alice, id, { path: 'rows[5].mail' }),
      'INVALID_ARGUMENTS',
      /No value at rows\[5\]\.mail: rows\[5\] has no key "mail" \(its keys: id, email, bio\)/,
    );
  }, 60_000);
});

describe('code gets whole results', () => {
  it('a script reads memory.read_graph whole: observations are arrays it can join', async () => {
    await addNpmServer(alice, 'memory', 'server-memory');
    const d = dispatcher();
    await d.dispatchTool(alice, 'memory.create_entities', {
      entities: [
        {
          name: 'Ada',
          entityType: 'person',
          observations: ['Wrote the first program', 'Was a countess'],
        },
        { name: 'Alan', entityType: 'person', observations: ['Broke Enigma'] },
      ],
    });
    const result = await sandbox.run(
      "const g = await tools.memory.read_graph({}); return g.entities.map(e => e.observations.join('; '))",
      { tools: [{ server: 'memory', name: 'read_graph' }], callTool: codeToolCaller(d, alice) },
    );
    expect(result).toMatchObject({
      ok: true,
      value: ['Wrote the first program; Was a countess', 'Broke Enigma'],
    });
  }, 60_000);

  it('JSON text arrives parsed and whole, and images with their data', async () => {
    await addScripted(alice, 'db', resultsScript);
    await addNpmServer(alice, 'everything', 'server-everything');
    const d = dispatcher({ envelope: { maxTokens: 500 } }); // the model's budget does not apply to code
    const result = await sandbox.run(
      `const r = await tools.db.export_rows({});
       const q = await tools.db.query({});
       const img = await tools.everything['get_tiny_image']({});
       const image = img.find((b) => b.type === 'image');
       return { n: r.rows.length, last: r.rows[1199].email, names: q.data.rows.map((row) => row.name),
                image: { mimeType: image.mimeType, length: image.data.length } };`,
      {
        tools: [
          { server: 'db', name: 'export_rows' },
          { server: 'db', name: 'query' },
          { server: 'everything', name: 'get-tiny-image' },
        ],
        callTool: codeToolCaller(d, alice),
      },
    );
    const direct = await stack.pool.callTool(alice, 'everything', 'get-tiny-image', {});
    const image = direct.content.find((block) => block.type === 'image') as { data: string };
    expect(result).toMatchObject({
      ok: true,
      value: {
        n: 1_200,
        last: 'user1199@example.com',
        names: ['Ada Lovelace', 'Alan Turing', 'Grace Hopper'],
        image: { mimeType: 'image/png', length: image.data.length },
      },
    });
    // What a script returns is shaped for the model by the same envelope, readable the same way.
    const shaped = d.observe(alice, rows, { source: 'code.run' });
    expect(shaped.truncated).toBe(true);
    expect(await readAll(d, shaped.data)).toEqual(rows);
  }, 60_000);

  it("a result past the operator's per-call cap fails clearly, for code and for the model", async () => {
    await addScripted(alice, 'db', resultsScript);
    const d = dispatcher({ maxResultBytes: 100_000 });
    const cap =
      /db\.export_rows returned \d+ bytes of JSON; one call may return at most 100000 bytes\. .*DispatcherOptions\.maxResultBytes/;
    for (const caller of ['code', 'model'] as const) {
      expectError(
        await d.dispatchTool(alice, 'db.export_rows', {}, { caller }),
        'BUDGET_EXCEEDED',
        cap,
      );
    }
    const result = await sandbox.run(
      'try { await tools.db.export_rows({}); return "no error"; } catch (e) { return e.message; }',
      { tools: [{ server: 'db', name: 'export_rows' }], callTool: codeToolCaller(d, alice) },
    );
    expect(result).toMatchObject({ ok: true, value: expect.stringMatching(cap) });
    expect(await d.dispatchTool(alice, 'db.query', {}, { caller: 'code' })).toMatchObject({
      ok: true,
    });
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ScriptedBlock } from '@mcp-agent/agent/testing';
import { launchChromium, serverFixtures } from '@mcp-agent/test-support';
import { startObservedServer, type ObservedServer } from '../testing/observed-server.js';

// The web UI in Debian's chromium against a real server: real MCP servers behind the pool and
// the gateway, the real Anthropic SDK against a scripted model. Screenshots go to
// MCP_AGENT_SCREENSHOTS (the README's are made with MCP_AGENT_SCREENSHOTS=docs/screenshots).
const shots = process.env.MCP_AGENT_SCREENSHOTS ?? join('node_modules', '.cache', 'ui-screenshots');
// Arguments no view may show: the traces and logs record names, sizes and codes only.
const SECRET_ARGUMENT = 'acme/private-repo-4f1c';
const BROWSER_TEST_MS = 60_000;

let server: ObservedServer;
let browser: Browser;
let closeBrowser: (() => Promise<void>) | undefined;
let aliceTask = '';

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startObservedServer({ fixtures: serverFixtures });
  ({ browser, close: closeBrowser } = await launchChromium());
  // Alice uses the gateway as an MCP client would: search, describe, two calls, code.
  const alice = await server.gatewayClient('alice');
  await alice.listTools();
  await alice.callTool({ name: 'search_tools', arguments: { query: 'list open issues' } });
  await alice.callTool({
    name: 'describe_tools',
    arguments: { tool_ids: ['github.list_issues', 'github.add_label'] },
  });
  for (let i = 0; i < 2; i++)
    await alice.callTool({
      name: 'call_tool',
      arguments: { tool_id: 'github.list_issues', arguments: { repo: SECRET_ARGUMENT } },
    });
  await alice.callTool({
    name: 'run_code',
    arguments: { code: 'return (await tools.github.list_issues({ repo: "x" })).length;' },
  });
  const bob = await server.gatewayClient('bob');
  await bob.callTool({ name: 'describe_tools', arguments: { tool_ids: ['weather.forecast'] } });
  await bob.callTool({
    name: 'call_tool',
    arguments: { tool_id: 'weather.forecast', arguments: { city: 'Oslo' } },
  });
}, BROWSER_TEST_MS);
afterAll(async () => {
  await closeBrowser?.();
  await server?.close();
});

/** A page signed in with `token` (as `mcp-agent ui` prints it), showing `view`. */
async function open(token: string, view: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${server.url}/ui/#token=${encodeURIComponent(token)}`);
  await page.waitForSelector('[data-view="tasks"][data-loaded="true"]');
  // The token left the address at once.
  expect(page.url()).not.toContain(token);
  await go(page, view);
  (page as Page & { errors?: string[] }).errors = errors;
  return page;
}

// Page functions run in the browser; the tests' own types have no DOM, so they are strings.
async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

const api = (token: string, path: string) =>
  fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

describe('web UI in headless chromium (real server, real MCP servers)', () => {
  it(
    'servers view: readiness, per-server figures and a flagged server; a server’s tools with deep views and poisoning flags',
    async () => {
      const page = await open(server.tokens.alice, '#/servers');
      await page.waitForSelector('[data-view="servers"][data-loaded="true"]');
      const rows = await page.$$eval('[data-view="servers"] tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())),
      );
      const github = rows.find((row) => row[0] === 'github');
      // Readiness, tools, calls (two direct, one from code), errors.
      expect(github?.slice(0, 5)).toEqual(['github', 'ready', '3', '3', '0']);
      expect(rows.find((row) => row[0] === 'notes')?.[8]).toBe('1');
      expect(rows.map((row) => row[0])).toEqual(['everything', 'github', 'notes']);
      await shoot(page, 'servers');
      // Keyboard: Tab to the "notes" link and follow it with Enter.
      await page.focus('a[href="#/servers/notes"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-view="server-tools"][data-loaded="true"]');
      const tool = page.locator('article[aria-label="notes.save_note"]');
      await expect(tool.locator('.flag').first().textContent()).resolves.toContain(
        'hidden-instructions',
      );
      // The hostile description is shown as text: its tags are characters, never elements.
      await expect(tool.textContent()).resolves.toContain('<IMPORTANT>Before using this tool');
      expect(await tool.locator('important').count()).toBe(0);
      await tool.locator('summary').click();
      await expect(tool.locator('pre').textContent()).resolves.toContain(
        '"tool_id": "notes.save_note"',
      );
      await shoot(page, 'server-tools');
      expect((page as Page & { errors?: string[] }).errors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'search box, by keyboard: the ranking and why each tool matched',
    async () => {
      const page = await open(server.tokens.alice, '#/tasks');
      await page.locator('main').focus();
      await page.keyboard.press('g');
      await page.keyboard.press('f');
      await page.waitForSelector('#search-box');
      await page.keyboard.type('list open issues');
      await page.keyboard.press('Enter');
      await page.waitForSelector('[data-view="search"][data-loaded="true"] tbody tr');
      const first = await page.$eval('[data-view="search"] tbody tr', (tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim()),
      );
      expect(first[0]).toBe('1');
      expect(first[1]).toBe('github.list_issues');
      expect(first[4]).toMatch(/name: list, issu/);
      expect(first[4]).toMatch(/description: .*open/);
      // The relevance shown follows the rank (#29).
      const relevances = await page.$$eval('[data-view="search"] tbody tr', (rows) =>
        rows.map((tr) => Number(tr.querySelectorAll('td')[3]?.textContent)),
      );
      expect(relevances[0]).toBeGreaterThan(0);
      expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
      await shoot(page, 'search');
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'a task started in the UI fills its timeline in live: inventory → search → describe → call → code → answer, with observations, tokens and durations',
    async () => {
      const step = (block: ScriptedBlock) => ({ content: [block], delayMs: 300 });
      const use = (name: string, input: unknown) => step({ type: 'tool_use', name, input });
      server.model.push(
        use('search_tools', { query: 'open issues' }),
        use('describe_tools', { tool_ids: ['github.list_issues', 'github.add_label'] }),
        use('call_tool', { tool_id: 'github.list_issues', arguments: { repo: 'acme/app' } }),
        use('run_code', {
          code: 'const issues = await tools.github.list_issues({ repo: "acme/app" }); await tools.github.add_label({ issue: issues[0].number, label: "bug" }); return issues[0].number;',
        }),
        step({ type: 'text', text: 'Issue 7 (Crash on start) is labelled bug.' }),
      );
      const page = await open(server.tokens.alice, '#/tasks');
      await page.fill('#task-text', 'Label the crash issue of acme/app as a bug');
      await page.click('#run-task');
      await page.waitForSelector('[data-view="task"][data-loaded="true"]');
      aliceTask = decodeURIComponent(page.url().split('#/tasks/')[1] ?? '');
      expect(aliceTask).toMatch(/^task_/);
      // Watch it fill in: each kind appears, then finishes, before the next.
      const seen: string[] = [];
      for (const kind of ['search', 'describe', 'call', 'code']) {
        await page.waitForSelector(`#timeline li[data-kind="${kind}"][data-done="true"]`);
        seen.push(kind);
        const finished = await page.$('[data-view="task"][data-finished="true"]');
        if (kind !== 'code') expect(finished).toBeNull();
      }
      await page.waitForSelector('[data-view="task"][data-finished="true"]');
      const kinds = await page.$$eval('#timeline > li', (items) =>
        items.map((li) => li.getAttribute('data-kind')),
      );
      expect(kinds).toEqual(['inventory', 'search', 'describe', 'call', 'code', 'answer']);
      const figures = await page.$$eval('#timeline [data-figures]', (nodes) =>
        nodes.map((n) => n.textContent),
      );
      expect(figures[0]).toMatch(/^ok · \d+ ms · tokens 100 in \/ 20 out$/);
      expect(figures).toHaveLength(4);
      await expect(page.textContent('#task-status')).resolves.toBe('completed');
      await expect(page.textContent('#timeline li[data-kind="answer"]')).resolves.toContain(
        'Issue 7',
      );
      await page.locator('#timeline li[data-kind="code"] summary').nth(1).click();
      await expect(
        page.textContent('#timeline li[data-kind="code"] details[open] pre'),
      ).resolves.toContain('"tool_calls": 2');
      await shoot(page, 'task-timeline');
      // The list has it, with its steps and tokens.
      await go(page, '#/tasks');
      await page.waitForSelector('[data-view="tasks"][data-loaded="true"]');
      const row = await page.$eval('[data-view="tasks"] tbody tr', (tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim()),
      );
      expect(row.slice(1)).toEqual([
        'completed',
        'Label the crash issue of acme/app as a bug',
        '4',
        '500 / 100',
        expect.stringMatching(/s$/),
      ]);
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'MCP traces of the gateway: each incoming request and the requests it sent, redacted',
    async () => {
      const page = await open(server.tokens.alice, '#/traces');
      await page.waitForSelector('[data-view="traces"][data-loaded="true"]');
      const rows = await page.$$eval('[data-view="traces"] tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())),
      );
      const calls = rows.filter((r) => r[3] === 'call_tool' && r[4] === 'github.list_issues');
      expect(calls).toHaveLength(2);
      // Under each incoming call_tool, the pooled request it made to the server.
      const index = rows.indexOf(calls[0] as (typeof rows)[number]);
      expect(rows[index + 1]?.slice(0, 6)).toEqual([
        '← out',
        expect.any(String),
        'tools/call',
        'github.list_issues',
        '',
        'ok',
      ]);
      expect(rows.some((r) => r[3] === 'run_code')).toBe(true);
      expect(rows.some((r) => r[0] === '→ in' && r[2] === 'tools/list')).toBe(true);
      const page_text = (await page.textContent('main')) ?? '';
      expect(page_text).not.toContain(SECRET_ARGUMENT);
      expect(page_text).not.toContain('Crash on start');
      await shoot(page, 'traces');
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'live logs with a level filter: new lines arrive as they are written',
    async () => {
      const page = await open(server.tokens.alice, '#/logs?level=debug');
      await page.waitForSelector('[data-view="logs"][data-loaded="true"]');
      await page.waitForSelector('.log-line[data-level="debug"]');
      const before = await page.locator('.log-line').count();
      const client = await server.gatewayClient('alice');
      await client.callTool({
        name: 'describe_tools',
        arguments: { tool_ids: ['github.add_label'] },
      });
      await client.callTool({
        name: 'call_tool',
        arguments: { tool_id: 'github.add_label', arguments: { issue: 9, label: 'docs' } },
      });
      await expect.poll(() => page.locator('.log-line').count()).toBeGreaterThan(before);
      await expect(page.textContent('#log-lines')).resolves.toContain('tool call');
      await shoot(page, 'logs');
      // Keyboard: choose "warn" in the level list; debug lines are gone.
      await page.focus('#log-level');
      await page.selectOption('#log-level', 'warn');
      await expect.poll(() => page.url()).toMatch(/#\/logs\?level=warn$/);
      await page.waitForSelector('[data-view="logs"][data-loaded="true"]');
      await page.waitForTimeout(300);
      const levels = await page.$$eval('.log-line', (lines) =>
        lines.map((line) => line.getAttribute('data-level')),
      );
      expect(levels.length).toBeGreaterThan(0);
      expect(levels.every((level) => level === 'warn' || level === 'error')).toBe(true);
      await expect(page.textContent('#log-lines')).resolves.toContain('possible poisoning');
      await page.close();
    },
    BROWSER_TEST_MS,
  );

  it(
    'tenant B sees none of tenant A’s tasks, servers or traces',
    async () => {
      expect(aliceTask).not.toBe('');
      const page = await open(server.tokens.bob, '#/tasks');
      await expect(page.textContent('main')).resolves.toContain('No task yet.');
      await go(page, `#/tasks/${aliceTask}`);
      await page.waitForSelector('[data-view="error"]');
      await expect(page.textContent('main')).resolves.toContain('No such task.');
      await go(page, '#/servers');
      await page.waitForSelector('[data-view="servers"][data-loaded="true"]');
      const servers = await page.$$eval('[data-view="servers"] tbody tr td:first-child', (tds) =>
        tds.map((td) => td.textContent),
      );
      expect(servers).toEqual(['jira', 'weather']);
      await go(page, '#/servers/github');
      await page.waitForSelector('[data-view="error"]');
      await expect(page.textContent('main')).resolves.toContain('No server "github"');
      await go(page, '#/traces');
      await page.waitForSelector('[data-view="traces"][data-loaded="true"]');
      const traces = (await page.textContent('main')) ?? '';
      expect(traces).toContain('weather.forecast');
      expect(traces).not.toContain('github');
      await go(page, '#/search?q=list%20issues');
      await page.waitForSelector('[data-view="search"][data-loaded="true"]');
      expect(await page.textContent('main')).not.toContain('github');
      await page.close();
      // The same at the API: another tenant's task is "not found", the operator's data is refused.
      expect((await api(server.tokens.bob, `/ui/api/tasks/${aliceTask}`)).status).toBe(404);
      expect((await api(server.tokens.bob, `/ui/api/tasks/${aliceTask}/events`)).status).toBe(404);
      expect((await api(server.tokens.bob, '/ui/api/servers/github/tools')).status).toBe(404);
      expect((await api(server.tokens.bob, '/ui/api/process')).status).toBe(403);
      expect((await api(server.tokens.bob, '/metrics')).status).toBe(401);
      const bobTraces = (await (await api(server.tokens.bob, '/ui/api/traces')).json()) as {
        traces: { server?: string; toolId?: string; userId?: string }[];
      };
      expect(bobTraces.traces.length).toBeGreaterThan(0);
      expect(bobTraces.traces.every((t) => (t.server ?? 'weather') === 'weather')).toBe(true);
      expect(bobTraces.traces.every((t) => t.userId === undefined)).toBe(true);
      // A tenant cannot widen its view with ?tenant=.
      const widened = (await (
        await api(server.tokens.bob, '/ui/api/tasks?tenant=alice')
      ).json()) as {
        tasks: unknown[];
      };
      expect(widened.tasks).toEqual([]);
    },
    BROWSER_TEST_MS,
  );

  it(
    'the operator token sees every tenant and the process figures; one tenant with the tenant box',
    async () => {
      const page = await open(server.tokens.operator, '#/tasks');
      const first = await page.$eval('[data-view="tasks"] tbody tr', (tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim()),
      );
      expect(first[0]).toBe('alice');
      await go(page, '#/servers');
      await page.waitForSelector('[data-view="servers"][data-loaded="true"]');
      const tenants = await page.$$eval('[data-view="servers"] tbody tr td:first-child', (tds) => [
        ...new Set(tds.map((td) => td.textContent)),
      ]);
      expect(tenants.sort()).toEqual(['alice', 'bob']);
      // Bob's server that cannot start: failed, with the reason it gave.
      const jira = await page.$eval(
        '[data-view="servers"] tbody tr:has(td:text-is("jira"))',
        (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim()),
      );
      expect(jira[2]).toBe('failed');
      expect(jira.at(-1)).toContain('is missing');
      await shoot(page, 'servers-every-tenant');
      await go(page, '#/process');
      await page.waitForSelector('[data-view="process"][data-loaded="true"]');
      const metrics = (await page.textContent('#metrics-text')) ?? '';
      expect(metrics).toMatch(/mcp_agent_connector_calls_total\{[^}]*server="github"[^}]*\} \d+/);
      await shoot(page, 'process');
      await page.fill('#tenant', 'bob');
      await page.press('#tenant', 'Enter');
      await expect.poll(() => page.textContent('#who')).toContain('bob');
      await go(page, '#/servers');
      await page.waitForSelector('[data-view="servers"][data-loaded="true"] h1:text("Servers")');
      const servers = await page.$$eval('[data-view="servers"] tbody tr td:first-child', (tds) =>
        tds.map((td) => td.textContent),
      );
      expect(servers).toEqual(['jira', 'weather']);
      await page.close();
    },
    BROWSER_TEST_MS,
  );
});

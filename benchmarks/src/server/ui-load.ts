// `pnpm bench ui [--tasks 1000] [--runs 5]`: how long the web UI takes to show the task list
// with that many tasks stored, in Debian's chromium, from navigation to the rendered table.
import { loadavg } from 'node:os';
import { latencyStats } from '@mcp-agent/core/testing';
import { launchChromium, serverFixtures } from '@mcp-agent/test-support';
import { startObservedServer } from '@mcp-agent/server/testing';

/** What the benchmark prints. */
export interface UiLoadResult {
  readonly tasks: number;
  /** Rows the task list shows at first (the newest hundred). */
  readonly rowsRendered: number;
  /** The same, with every task's row ("Show all"). */
  readonly allRows: { readonly rows: number; readonly p50: number; readonly max: number };
  /** The machine's one-minute load average when the runs ended: 2 cores are shared. */
  readonly loadAverage: number;
  /** Navigation start to the frame after the task table was rendered, in the page's clock (ms). */
  readonly loadMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** The task list's fetch and render alone (ms). */
  readonly listMs: { readonly p50: number; readonly max: number };
  /** Size of the task list's JSON. */
  readonly listBytes: number;
  readonly runs: number;
  readonly seedSeconds: number;
}

/** Stores `tasks` finished tasks through the API, then loads the UI `runs` times. */
export async function runUiLoadBenchmark(options: { tasks?: number; runs?: number } = {}) {
  const count = options.tasks ?? 1_000;
  const runs = options.runs ?? 5;
  const server = await startObservedServer({ fixtures: serverFixtures, logLevel: 'info' });
  const { browser, close } = await launchChromium();
  try {
    const auth = { authorization: `Bearer ${server.tokens.alice}` };
    for (let i = 0; i < count; i++)
      server.model.push({ content: [{ type: 'text', text: `Done ${i}.` }] });
    const seeded = performance.now();
    // Four at a time: the user's running-task limit.
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const index = next++;
        const response = await fetch(`${server.url}/v1/tasks`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ task: `Task number ${index}: summarise the open issues` }),
        });
        const { id } = (await response.json()) as { id: string };
        for (;;) {
          const task = (await (
            await fetch(`${server.url}/v1/tasks/${id}`, { headers: auth })
          ).json()) as { status: string };
          if (task.status !== 'running') break;
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const seedSeconds = Math.round((performance.now() - seeded) / 100) / 10;
    const listBytes = (await (await fetch(`${server.url}/ui/api/tasks`, { headers: auth })).text())
      .length;
    const loads: number[] = [];
    const lists: number[] = [];
    const everyRow: number[] = [];
    let rowsRendered = 0;
    let rowsOfAll = 0;
    for (let run = 0; run < runs + 1; run++) {
      // Every task at once (the "Show all" view), loaded as a fresh page.
      const all = await browser.newPage();
      await all.goto(`${server.url}/ui/#token=${server.tokens.alice}`);
      await all.waitForSelector('[data-view="tasks"][data-painted="true"]');
      await all.evaluate("location.hash = '#/tasks?all=1'; location.reload()");
      await all.waitForSelector('[data-view="tasks"][data-painted="true"]');
      const whole = (await all.evaluate(
        "({ now: performance.getEntriesByName('mcp-ui:tasks-painted')[0].startTime, rows: document.querySelectorAll('[data-view=\"tasks\"] tbody tr').length })",
      )) as { now: number; rows: number };
      await all.close();
      const page = await browser.newPage();
      await page.goto(`${server.url}/ui/#token=${server.tokens.alice}`);
      await page.waitForSelector('[data-view="tasks"][data-loaded="true"]');
      // Measured in the page: from navigation start to the frame after the table was rendered.
      await page.waitForSelector('[data-view="tasks"][data-painted="true"]');
      const figures = (await page.evaluate(
        "({ now: performance.getEntriesByName('mcp-ui:tasks-painted')[0].startTime, list: performance.getEntriesByName('mcp-ui:tasks-rendered')[0].duration, rows: document.querySelectorAll('[data-view=\"tasks\"] tbody tr').length })",
      )) as { now: number; list: number; rows: number };
      await page.close();
      // The first load warms the server's and the browser's caches; it is not counted.
      if (run === 0) continue;
      loads.push(figures.now);
      lists.push(figures.list);
      everyRow.push(whole.now);
      rowsRendered = figures.rows;
      rowsOfAll = whole.rows;
    }
    const load = latencyStats(loads);
    const list = latencyStats(lists);
    const whole = latencyStats(everyRow);
    return {
      tasks: count,
      rowsRendered,
      loadMs: { p50: load.p50, p99: load.p99, max: Math.round(Math.max(...loads)) },
      allRows: { rows: rowsOfAll, p50: whole.p50, max: Math.round(Math.max(...everyRow)) },
      loadAverage: Math.round((loadavg()[0] ?? 0) * 10) / 10,
      listMs: { p50: list.p50, max: Math.round(Math.max(...lists)) },
      listBytes,
      runs,
      seedSeconds,
    } satisfies UiLoadResult;
  } finally {
    await close();
    await server.close();
  }
}

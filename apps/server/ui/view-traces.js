import { request } from './api.js';
import { badge, duration, h, size, table, time } from './dom.js';

/**
 * The MCP traffic: each request the gateway answered, then the requests sent to servers for it
 * (a task's calls under the task's own request). Names, sizes, outcomes and codes only:
 * arguments and results are never recorded.
 * @param {import('./view-servers.js').View} view
 */
export async function traces(view) {
  const { main, signal, session } = view;
  const answer = await request('/ui/api/traces', { query: { limit: 300 }, signal });
  /** @type {Map<string, any[]>} */
  const byRequest = new Map();
  for (const entry of [...answer.traces].reverse())
    byRequest.set(entry.requestId, [...(byRequest.get(entry.requestId) ?? []), entry]);
  const groups = [...byRequest.values()].reverse();
  const operator = session.operator === true && session.userId === null;
  /** @type {any[][]} */
  const rows = [];
  for (const group of groups) {
    const ordered = [
      ...group.filter((e) => e.direction === 'in'),
      ...group.filter((e) => e.direction === 'out'),
    ];
    for (const entry of ordered)
      rows.push([
        ...(operator ? [entry.userId ?? ''] : []),
        entry.direction === 'in' ? '→ in' : '  ← out',
        time(entry.at),
        entry.method,
        entry.direction === 'in' ? entry.name : `${entry.server}.${entry.name}`,
        entry.toolId ?? '',
        badge(entry.outcome === 'ok' ? 'ok' : 'error'),
        entry.errorType ?? '',
        duration(entry.durationMs),
        size(entry.requestBytes),
        size(entry.responseBytes),
      ]);
  }
  main.replaceChildren(
    h(
      'section',
      { 'aria-labelledby': 'traces-title', 'data-view': 'traces', 'data-loaded': 'true' },
      h('h1', { id: 'traces-title' }, 'MCP traces of the gateway'),
      h(
        'p',
        { class: 'muted' },
        answer.enabled
          ? 'Requests the gateway answered (→) and the requests sent to servers for them (←; a task’s under its own), newest first; arguments and results are never recorded, only names, sizes, outcomes and codes.'
          : 'Telemetry is off in this process (OTEL_SDK_DISABLED), so nothing is recorded.',
      ),
      rows.length === 0
        ? h('p', {}, 'No gateway traffic recorded yet.')
        : table(
            [
              ...(operator ? [{ label: 'Tenant' }] : []),
              { label: 'Direction' },
              { label: 'At' },
              { label: 'Method' },
              { label: 'Tool' },
              { label: 'Target' },
              { label: 'Outcome' },
              { label: 'Error' },
              { label: 'Duration', numeric: true },
              { label: 'Request', numeric: true },
              { label: 'Response', numeric: true },
            ],
            rows,
            `${answer.traces.length} requests in ${groups.length} groups`,
          ),
    ),
  );
}

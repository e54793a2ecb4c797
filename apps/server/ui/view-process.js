import { request } from './api.js';
import { h, json, size } from './dom.js';

/**
 * The operator's figures of the process, and the Prometheus text of /metrics.
 * @param {import('./view-servers.js').View} view
 */
export async function processView(view) {
  const { main, signal } = view;
  const figures = await request('/ui/api/process', { signal });
  const metrics = await fetch('/metrics', {
    headers: { authorization: `Bearer ${sessionStorage.getItem('mcp-agent-token') ?? ''}` },
    signal,
  }).then((r) => r.text());
  main.replaceChildren(
    h(
      'section',
      { 'aria-labelledby': 'process-title', 'data-view': 'process', 'data-loaded': 'true' },
      h('h1', { id: 'process-title' }, 'Process'),
      h(
        'p',
        {},
        `Up ${figures.uptimeSeconds} s · memory ${size(figures.memory.rss)} resident, ${size(figures.memory.heapUsed)} heap · ${figures.pool.sessions} pooled sessions · ${figures.tasks} tasks held · ${figures.traces} MCP trace entries`,
      ),
      json('Figures', figures),
      h('h2', {}, 'Metrics (Prometheus text of /metrics)'),
      h('pre', { id: 'metrics-text' }, metrics),
    ),
  );
}

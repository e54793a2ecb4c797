import { request } from './api.js';
import { badge, duration, h, json, table, time } from './dom.js';

/**
 * @typedef {{ main: HTMLElement, params: string[], query: URLSearchParams, session: any, signal: AbortSignal }} View
 */

/**
 * Servers with readiness, last error and per-server figures; refreshed every 5 s.
 * @param {View} view
 */
export async function servers(view) {
  const { main, signal } = view;
  const draw = async () => {
    const { scope, servers: rows } = await request('/ui/api/servers', { signal });
    const all = scope === 'all';
    const section = h(
      'section',
      { 'aria-labelledby': 'servers-title', 'data-view': 'servers', 'data-loaded': 'true' },
      h('h1', { id: 'servers-title' }, all ? 'Open connections, every tenant' : 'Servers'),
      rows.length === 0
        ? h('p', { class: 'muted' }, all ? 'No connection is open.' : 'No server is registered.')
        : table(
            [
              ...(all ? [{ label: 'Tenant' }] : []),
              { label: 'Server' },
              { label: 'Readiness' },
              { label: 'Tools', numeric: true },
              { label: 'Calls', numeric: true },
              { label: 'Errors', numeric: true },
              { label: 'Mean latency', numeric: true },
              { label: 'Last latency', numeric: true },
              { label: 'Last used' },
              { label: 'Flagged tools', numeric: true },
              { label: 'Last error' },
            ],
            rows.map((/** @type {any} */ row) => [
              ...(all ? [row.userId] : []),
              all ? row.id : h('a', { href: `#/servers/${encodeURIComponent(row.id)}` }, row.id),
              h(
                'span',
                {},
                badge(row.status),
                row.breaker === 'open' ? badge('breaker open') : null,
              ),
              row.toolCount ?? '—',
              row.calls,
              row.errors,
              duration(row.meanLatencyMs),
              duration(row.lastLatencyMs),
              time(row.lastUsedAt),
              row.flagged > 0 ? h('span', { class: 'flag' }, String(row.flagged)) : '0',
              row.lastError === null ? '' : h('span', { class: 'error-text' }, row.lastError),
            ]),
            `${rows.length} ${all ? 'connections' : 'servers'}; calls, errors and latency are this process's, since each connection opened.`,
          ),
    );
    main.replaceChildren(section);
  };
  await draw();
  const timer = setInterval(() => void draw().catch(() => undefined), 5_000);
  signal.addEventListener('abort', () => clearInterval(timer));
}

/**
 * One server's tools: description as served, deep view, poisoning flags.
 * @param {View} view
 */
export async function serverTools(view) {
  const { main, signal } = view;
  const id = view.params[0] ?? '';
  const { tools } = await request(`/ui/api/servers/${encodeURIComponent(id)}/tools`, { signal });
  const flagged = tools.filter((/** @type {any} */ t) => t.findings.length > 0).length;
  main.replaceChildren(
    h(
      'section',
      { 'aria-labelledby': 'tools-title', 'data-view': 'server-tools', 'data-loaded': 'true' },
      h('p', {}, h('a', { href: '#/servers' }, '← Servers')),
      h('h1', { id: 'tools-title' }, `${id}: ${tools.length} tools`),
      flagged > 0
        ? h(
            'p',
            { class: 'flag', role: 'note' },
            `${flagged} tool(s) flagged as possible poisoning: review before trusting this server.`,
          )
        : h('p', { class: 'muted' }, 'No tool is flagged.'),
      tools.map((/** @type {any} */ tool) =>
        h(
          'article',
          { class: 'card', 'aria-label': tool.toolId },
          h('h2', {}, tool.name, ' ', tool.findings.length > 0 ? badge('flagged') : null),
          tool.findings.length > 0
            ? h(
                'ul',
                { class: 'flag' },
                tool.findings.map((/** @type {any} */ f) => h('li', {}, `${f.kind}: ${f.detail}`)),
              )
            : null,
          h('p', {}, tool.description || h('span', { class: 'muted' }, 'No description.')),
          tool.deepView === null
            ? h('p', { class: 'muted' }, `Deep view: ${tool.deepViewError}`)
            : json('Deep view (what describe_tools shows the model)', tool.deepView),
        ),
      ),
    ),
  );
}

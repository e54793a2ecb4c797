import { stream } from './api.js';
import { h, time } from './dom.js';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
// Lines kept on the page; older ones scroll away.
const MAX_LINES = 1_000;

/**
 * Live logs at a chosen level or above: the user's own lines (every line for the operator).
 * @param {import('./view-servers.js').View} view
 */
export async function logs(view) {
  const { main, signal } = view;
  const level = LEVELS.includes(view.query.get('level') ?? '')
    ? String(view.query.get('level'))
    : 'info';
  const select = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      {
        id: 'log-level',
        onchange: () => {
          location.hash = `#/logs?level=${select.value}`;
        },
      },
      LEVELS.map((name) => h('option', { value: name, selected: name === level }, name)),
    )
  );
  const lines = h('div', {
    id: 'log-lines',
    role: 'log',
    'aria-live': 'off',
    'aria-label': 'Log lines',
  });
  let paused = false;
  const pause = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      'aria-pressed': 'false',
      onclick: () => {
        paused = !paused;
        pause.setAttribute('aria-pressed', String(paused));
        pause.textContent = paused ? 'Resume' : 'Pause';
      },
    },
    'Pause',
  );
  const section = h(
    'section',
    { 'aria-labelledby': 'logs-title', 'data-view': 'logs' },
    h('h1', { id: 'logs-title' }, 'Logs'),
    h(
      'div',
      { class: 'toolbar' },
      h('label', { for: 'log-level' }, 'Level and above'),
      select,
      pause,
    ),
    lines,
  );
  main.replaceChildren(section);
  section.setAttribute('data-loaded', 'true');
  await stream(
    '/ui/api/logs',
    { level },
    (_type, entry) => {
      if (paused) return;
      lines.prepend(
        h(
          'div',
          { class: 'log-line', 'data-level': entry.level },
          h('span', { class: `lvl ${entry.level}` }, entry.level),
          ` ${time(entry.time)} `,
          entry.userId ? `[${entry.userId}] ` : '',
          entry.msg,
          ' ',
          h('span', { class: 'muted' }, entry.fields === '{}' ? '' : entry.fields),
        ),
      );
      while (lines.childElementCount > MAX_LINES) lines.lastElementChild?.remove();
    },
    signal,
  );
}

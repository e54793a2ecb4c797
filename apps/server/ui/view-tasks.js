import { request, stream } from './api.js';
import { announce, badge, duration, h, json, table, time } from './dom.js';

const FIRST_ROWS = 100;

/**
 * The task list (newest first: the first hundred, then up to 1,000 on request) and, for a tenant,
 * a form to start one.
 * @param {import('./view-servers.js').View} view
 */
export async function tasks(view) {
  const { main, signal, session } = view;
  const started = performance.now();
  const { tasks: rows } = await request('/ui/api/tasks', { query: { limit: 1000 }, signal });
  // The newest hundred at first, so the page is ready at once; every task on request.
  const shown = view.query.get('all') === '1' ? rows.length : Math.min(rows.length, FIRST_ROWS);
  const operator = session.operator === true && session.userId === null;
  const text = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      id: 'task-text',
      name: 'task',
      required: true,
      placeholder: 'What should be done?',
    })
  );
  const form = !session.canStartTasks
    ? h(
        'p',
        { class: 'muted' },
        'Tasks are started with a tenant’s own token; the operator token only reads them.',
      )
    : h(
        'form',
        {
          class: 'card',
          onsubmit: async (event) => {
            event.preventDefault();
            try {
              const task = await request('/v1/tasks', {
                method: 'POST',
                body: { task: text.value },
              });
              location.hash = `#/tasks/${encodeURIComponent(task.id)}`;
            } catch (error) {
              announce(/** @type {Error} */ (error).message);
            }
          },
        },
        h('label', { for: 'task-text' }, 'Start a task'),
        text,
        h('p', {}, h('button', { type: 'submit', id: 'run-task' }, 'Run task')),
      );
  main.replaceChildren(
    h(
      'section',
      { 'aria-labelledby': 'tasks-title', 'data-view': 'tasks' },
      h('h1', { id: 'tasks-title' }, 'Tasks'),
      form,
      rows.length === 0
        ? h('p', { class: 'muted' }, 'No task yet.')
        : table(
            [
              ...(operator ? [{ label: 'Tenant', width: 'm' }] : []),
              { label: 'Started', width: 's' },
              { label: 'Status', width: 'm' },
              { label: 'Task' },
              { label: 'Steps', numeric: true, width: 'xs' },
              { label: 'Tokens in/out', numeric: true, width: 'm' },
              { label: 'Duration', numeric: true, width: 's' },
            ],
            rows
              .slice(0, shown)
              .map((/** @type {any} */ row) => [
                ...(operator ? [row.userId] : []),
                time(row.createdAt),
                badge(row.status),
                h('a', { href: `#/tasks/${encodeURIComponent(row.id)}` }, row.task),
                row.steps ?? '—',
                `${row.inputTokens} / ${row.outputTokens}`,
                duration(row.durationMs),
              ]),
            rows.length > shown
              ? `The newest ${shown} of ${rows.length} tasks`
              : `${rows.length} tasks, newest first`,
          ),
      rows.length > shown
        ? h(
            'p',
            {},
            h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                id: 'show-all-tasks',
                onclick: () => {
                  location.hash = '#/tasks?all=1';
                },
              },
              `Show all ${rows.length} tasks`,
            ),
          )
        : null,
    ),
  );
  main.firstElementChild?.setAttribute('data-loaded', 'true');
  performance.measure('mcp-ui:tasks-rendered', { start: started });
  // The frame after this one: the table has been laid out and painted.
  requestAnimationFrame(() =>
    setTimeout(() => {
      performance.mark('mcp-ui:tasks-painted');
      main.firstElementChild?.setAttribute('data-painted', 'true');
    }),
  );
}

const KINDS = /** @type {Record<string, string>} */ ({
  search_tools: 'search',
  describe_tools: 'describe',
  call_tool: 'call',
  run_code: 'code',
  query_server: 'sub-agent',
});

/**
 * A task as a timeline: inventory, then each command (search, describe, call or code) with its
 * arguments, observation, tokens and duration, then the answer; live over server-sent events.
 * @param {import('./view-servers.js').View} view
 */
export async function taskTimeline(view) {
  const { main, signal } = view;
  const id = view.params[0] ?? '';
  const detail = await request(`/ui/api/tasks/${encodeURIComponent(id)}`, { signal });
  const status = h('span', { id: 'task-status' }, badge(detail.status));
  const totals = h('p', { class: 'figures', id: 'task-totals' });
  const list = h('ol', { class: 'timeline', id: 'timeline', 'aria-live': 'polite' });
  const section = h(
    'section',
    { 'aria-labelledby': 'task-title', 'data-view': 'task' },
    h('p', {}, h('a', { href: '#/tasks' }, '← Tasks')),
    h('h1', { id: 'task-title' }, 'Task ', status),
    h('p', {}, detail.task),
    detail.userId === undefined ? null : h('p', { class: 'muted' }, `Tenant: ${detail.userId}`),
    totals,
    list,
  );
  main.replaceChildren(section);
  /** @type {HTMLElement | null} */
  let current = null;
  list.appendChild(
    h(
      'li',
      { 'data-kind': 'inventory' },
      h(
        'div',
        { class: 'step-head' },
        h('span', { class: 'kind' }, 'inventory'),
        h('span', { class: 'figures' }, time(detail.createdAt)),
      ),
      h(
        'p',
        { class: 'muted' },
        'The model starts from the inventory view: the servers of this task and their tool names.',
      ),
    ),
  );
  const onEvent = (/** @type {string} */ type, /** @type {any} */ event) => {
    if (type === 'tool-call') {
      const kind = KINDS[event.command] ?? event.command;
      const target =
        event.command === 'call_tool'
          ? event.arguments?.tool_id
          : event.command === 'search_tools'
            ? `“${event.arguments?.query ?? ''}”`
            : event.command === 'describe_tools'
              ? (event.arguments?.tool_ids ?? []).join(', ')
              : '';
      current = h(
        'li',
        { 'data-kind': kind, 'data-step': event.step },
        h(
          'div',
          { class: 'step-head' },
          h('span', { class: 'kind' }, kind),
          h('span', {}, `step ${event.step + 1}`),
          target ? h('code', {}, String(target)) : null,
          h('span', { class: 'figures', 'data-figures': '' }, 'running…'),
        ),
        json('Arguments', event.arguments),
      );
      list.appendChild(current);
    } else if (type === 'observation' && current !== null) {
      if (!event.ok) current.classList.add('failed');
      const figures = current.querySelector('[data-figures]');
      if (figures)
        figures.textContent = `${event.ok ? 'ok' : 'failed'} · ${duration(event.durationMs)} · tokens ${event.inputTokens ?? 0} in / ${event.outputTokens ?? 0} out`;
      current.appendChild(json('Observation', event.observation, !event.ok));
      current.setAttribute('data-done', 'true');
    } else if (type === 'answer') {
      list.appendChild(
        h(
          'li',
          { 'data-kind': 'answer' },
          h(
            'div',
            { class: 'step-head' },
            h('span', { class: 'kind' }, 'answer'),
            h(
              'span',
              { class: 'figures' },
              `${duration(event.durationMs)} · tokens ${event.inputTokens ?? 0} in / ${event.outputTokens ?? 0} out`,
            ),
          ),
          h('p', {}, event.answer),
        ),
      );
    } else if (type === 'done') {
      status.replaceChildren(badge(event.status));
      totals.textContent = `${event.status} in ${duration(event.durationMs)} · tokens ${event.usage?.inputTokens ?? 0} in / ${event.usage?.outputTokens ?? 0} out · tools used: ${(event.toolsUsed ?? []).join(', ') || 'none'}`;
      if (event.error)
        list.appendChild(
          h(
            'li',
            { class: 'failed', 'data-kind': 'error' },
            h('p', { class: 'error-text' }, `${event.error.code}: ${event.error.message}`),
          ),
        );
      section.setAttribute('data-finished', 'true');
      announce(`Task ${event.status}.`);
    }
  };
  section.setAttribute('data-loaded', 'true');
  await stream(`/ui/api/tasks/${encodeURIComponent(id)}/events`, {}, onEvent, signal);
}

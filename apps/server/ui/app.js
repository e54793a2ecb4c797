import { ApiError, currentTenant, request, setTenant, setToken, token } from './api.js';
import { announce, h } from './dom.js';
import { logs } from './view-logs.js';
import { processView } from './view-process.js';
import { search } from './view-search.js';
import { serverTools, servers } from './view-servers.js';
import { taskTimeline, tasks } from './view-tasks.js';
import { traces } from './view-traces.js';

/** @typedef {import('./view-servers.js').View} View */

/** @type {Record<string, (view: View) => Promise<void>>} */
const ROUTES = {
  servers: async (view) => (view.params.length > 0 ? serverTools(view) : servers(view)),
  search,
  tasks: async (view) => (view.params.length > 0 ? taskTimeline(view) : tasks(view)),
  traces,
  logs,
  process: processView,
};

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {any} */
let session = null;
/** @type {AbortController | null} */
let current = null;

// A token in the address (#token=…, as `mcp-agent ui` prints it) is kept for this tab only and
// taken out of the address at once, so it is neither bookmarked nor shown.
function takeTokenFromAddress() {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (match === null) return;
  setToken(decodeURIComponent(match[1] ?? ''));
  history.replaceState(null, '', `${location.pathname}#/tasks`);
}

function signIn() {
  const input = /** @type {HTMLInputElement} */ (
    h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true, size: 48 })
  );
  main.replaceChildren(
    h(
      'form',
      {
        class: 'card sign-in',
        'data-view': 'sign-in',
        onsubmit: (event) => {
          event.preventDefault();
          setToken(input.value.trim());
          void start();
        },
      },
      h('h1', {}, 'Sign in'),
      h('p', {}, 'Paste your API token (or the operator token).'),
      h('label', { for: 'token' }, 'Token'),
      ' ',
      input,
      ' ',
      h('button', { type: 'submit' }, 'Sign in'),
    ),
  );
  input.focus();
}

async function route() {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  const [path = '', search = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const [name = 'tasks', ...params] = path.split('/').map(decodeURIComponent);
  const render = ROUTES[name] ?? ROUTES.tasks;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.getAttribute('data-nav') === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  main.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
  try {
    await render?.({
      main,
      params,
      query: new URLSearchParams(search),
      session,
      signal: controller.signal,
    });
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof ApiError && error.status === 401) {
      setToken(null);
      signIn();
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    main.replaceChildren(
      h(
        'section',
        { 'data-view': 'error', 'data-loaded': 'true' },
        h('h1', {}, 'Not available'),
        h('p', { class: 'error-text', role: 'alert' }, message),
      ),
    );
  }
}

async function start() {
  takeTokenFromAddress();
  if (token() === null) return signIn();
  try {
    session = await request('/ui/api/session');
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      setToken(null);
      signIn();
      announce(error.message);
      return;
    }
    throw error;
  }
  const who = /** @type {HTMLElement} */ (document.getElementById('who'));
  who.textContent = describe(session);
  const signOut = /** @type {HTMLElement} */ (document.getElementById('sign-out'));
  signOut.hidden = false;
  signOut.onclick = () => {
    setToken(null);
    location.hash = '#/tasks';
    location.reload();
  };
  if (session.operator) {
    /** @type {HTMLElement} */ (document.querySelector('[data-nav="process"]')).hidden = false;
    const form = /** @type {HTMLFormElement} */ (document.getElementById('tenant-form'));
    const input = /** @type {HTMLInputElement} */ (document.getElementById('tenant'));
    form.hidden = false;
    input.value = currentTenant();
    form.onsubmit = async (event) => {
      event.preventDefault();
      setTenant(input.value.trim());
      session = await request('/ui/api/session');
      who.textContent = describe(session);
      void route();
    };
  }
  window.addEventListener('hashchange', () => void route());
  await route();
}

/** @param {any} current */
function describe(current) {
  if (!current.operator) return `signed in as ${current.userId}`;
  if (current.canStartTasks) return `${current.userId} (operator of this process)`;
  return `operator${current.userId ? ` viewing ${current.userId}` : ', every tenant'}`;
}

// Keyboard: "g" then a view's letter moves there; "/" focuses the search box; "r" refreshes.
let leader = false;
document.addEventListener('keydown', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    event.ctrlKey ||
    event.metaKey ||
    event.altKey
  )
    return;
  if (leader) {
    leader = false;
    const view = { s: 'servers', f: 'search', t: 'tasks', m: 'traces', l: 'logs', p: 'process' }[
      event.key
    ];
    if (view !== undefined) {
      location.hash = `#/${view}`;
      main.focus();
    }
    return;
  }
  if (event.key === 'g') leader = true;
  else if (event.key === 'r') void route();
  else if (event.key === '/') {
    event.preventDefault();
    if (!location.hash.startsWith('#/search')) location.hash = '#/search';
    else document.getElementById('search-box')?.focus();
  }
});

void start();

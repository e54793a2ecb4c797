import { request } from './api.js';
import { h, table } from './dom.js';

/**
 * The search box: the ranking as the agent sees it, and why each tool matched.
 * @param {import('./view-servers.js').View} view
 */
export async function search(view) {
  const { main, signal } = view;
  const query = view.query.get('q') ?? '';
  const input = /** @type {HTMLInputElement} */ (
    h('input', {
      id: 'search-box',
      type: 'search',
      name: 'q',
      value: query,
      size: 60,
      'aria-label': 'What the tool should do',
    })
  );
  const results = h('div', { id: 'search-results', 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      role: 'search',
      class: 'toolbar',
      onsubmit: (event) => {
        event.preventDefault();
        location.hash = `#/search?q=${encodeURIComponent(input.value)}`;
      },
    },
    h('label', { for: 'search-box' }, 'Find tools'),
    input,
    h('button', { type: 'submit' }, 'Search'),
  );
  main.replaceChildren(
    h(
      'section',
      { 'aria-labelledby': 'search-title', 'data-view': 'search' },
      h('h1', { id: 'search-title' }, 'Search'),
      form,
      results,
    ),
  );
  input.focus();
  if (query.trim() === '') {
    results.replaceChildren(
      h('p', { class: 'muted' }, 'Describe what a tool should do, e.g. "create an issue".'),
    );
    main.firstElementChild?.setAttribute('data-loaded', 'true');
    return;
  }
  const answer = await request('/ui/api/search', { query: { q: query, limit: 20 }, signal });
  results.replaceChildren(
    answer.results.length === 0
      ? h('p', {}, 'No tool matched; try other words.')
      : table(
          [
            { label: 'Rank', numeric: true },
            { label: 'Tool' },
            { label: 'Score', numeric: true },
            { label: 'Relevance', numeric: true },
            { label: 'Why it matched' },
            { label: 'Description' },
          ],
          answer.results.map((/** @type {any} */ row) => [
            row.rank,
            h(
              'a',
              { href: `#/servers/${encodeURIComponent(row.toolId.split('.')[0])}` },
              row.toolId,
            ),
            row.score,
            row.relevance.toFixed(2),
            why(row.why),
            row.description,
          ]),
          `Query terms: ${answer.results[0]?.why?.queryTerms.join(', ') ?? '—'} (after stop words and stemming). Why: the fields each term was found in; ≈ a related term from the thesaurus, … a prefix match.`,
        ),
  );
  main.firstElementChild?.setAttribute('data-loaded', 'true');
}

/** @param {any} explanation */
function why(explanation) {
  if (explanation === null) return h('span', { class: 'muted' }, '—');
  const parts = explanation.fields.map((/** @type {any} */ field) =>
    h(
      'span',
      {},
      h('strong', {}, `${field.field}: `),
      [
        ...field.terms,
        ...field.related.map((/** @type {string} */ t) => `≈${t}`),
        ...field.prefixes.map((/** @type {string} */ t) => `${t}…`),
      ].join(', '),
    ),
  );
  return h(
    'div',
    { class: 'why' },
    explanation.exact ? h('span', {}, h('strong', {}, 'exact name')) : null,
    parts.length === 0 && !explanation.exact
      ? h('span', { class: 'muted' }, 'server-level match')
      : parts,
  );
}

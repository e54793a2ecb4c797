// The one way views build the page: elements with text, never HTML from data (tool
// descriptions, observations and log lines are untrusted).

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | ((event: Event) => void) | undefined>} Attributes
 */

/**
 * An element with attributes (`on…` ones are listeners) and children (text or nodes).
 * @param {string} tag
 * @param {Attributes} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/**
 * @param {Node} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * A status badge whose class is its value (ready, failed, completed…).
 * @param {string} value
 */
export function badge(value) {
  return h('span', { class: `badge ${value.replace(/[^a-z_]/gi, '')}` }, value);
}

/**
 * A table with a header row and one row per item; `rows` give cells (text or nodes). Columns
 * with a `width` make a fixed layout, which long tables need: the browser then lays out each
 * row once instead of measuring every cell of every row first.
 * @param {{ label: string, numeric?: boolean, width?: string }[]} columns
 * @param {Child[][]} rows
 * @param {string} caption
 */
export function table(columns, rows, caption) {
  const body = h('tbody');
  const fragment = document.createDocumentFragment();
  for (const row of rows) {
    const tr = document.createElement('tr');
    row.forEach((cell, index) => {
      const td = document.createElement('td');
      if (columns[index]?.numeric) td.className = 'num';
      append(td, [cell]);
      tr.appendChild(td);
    });
    fragment.appendChild(tr);
  }
  body.appendChild(fragment);
  const fixed = columns.some((c) => c.width !== undefined);
  return h(
    'table',
    { class: fixed ? 'fixed' : undefined },
    h('caption', { class: 'muted' }, caption),
    fixed
      ? h(
          'colgroup',
          {},
          columns.map((c) => h('col', { class: c.width ? `w-${c.width}` : undefined })),
        )
      : null,
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((c) =>
          h('th', { scope: 'col', class: c.numeric ? 'num' : undefined }, c.label),
        ),
      ),
    ),
    body,
  );
}

/**
 * Pretty JSON in a collapsible block.
 * @param {string} summary
 * @param {unknown} value
 * @param {boolean} [open]
 */
export function json(summary, value, open = false) {
  return h(
    'details',
    { open },
    h('summary', {}, summary),
    h('pre', {}, JSON.stringify(value, null, 2)),
  );
}

/** @param {number | null | undefined} ms */
export function duration(ms) {
  if (ms === null || ms === undefined) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

// One formatter for every time shown: making one per call costs more than the rest of a row.
const TIME = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/** @param {number | null | undefined} epochMs */
export function time(epochMs) {
  if (epochMs === null || epochMs === undefined) return '—';
  return TIME.format(epochMs);
}

/** @param {number | null | undefined} bytes */
export function size(bytes) {
  if (bytes === null || bytes === undefined || bytes < 0) return '—';
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * Says something to screen readers and sighted users alike.
 * @param {string} text
 */
export function announce(text) {
  const status = document.getElementById('status');
  if (status) status.textContent = text;
}

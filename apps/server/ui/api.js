// The UI's one road to the server: bearer-token requests to /ui/api and /v1, and server-sent
// events read with fetch (EventSource cannot send an Authorization header, and the token must
// not travel in a URL).

const TOKEN_KEY = 'mcp-agent-token';

/** @returns {string | null} */
export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** @param {string | null} value */
export function setToken(value) {
  if (value === null) sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, value);
}

let tenant = '';

/** The tenant the operator looks at ('' for every tenant). @param {string} value */
export function setTenant(value) {
  tenant = value;
}

/** @returns {string} */
export function currentTenant() {
  return tenant;
}

/** An error the server answered, with its stable code. */
export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {string} path
 * @param {Record<string, string | number | undefined>} [query]
 */
function url(path, query = {}) {
  const target = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') target.searchParams.set(name, String(value));
  if (tenant !== '' && path.startsWith('/ui/api/')) target.searchParams.set('tenant', tenant);
  return target.toString();
}

/** @returns {Record<string, string>} */
function headers() {
  const value = token();
  return value === null ? {} : { authorization: `Bearer ${value}` };
}

/**
 * GETs (or sends `body` to) a JSON route; a failure throws an ApiError with the server's words.
 * @param {string} path
 * @param {{ query?: Record<string, string | number | undefined>, method?: string, body?: unknown, signal?: AbortSignal }} [options]
 * @returns {Promise<any>}
 */
export async function request(path, options = {}) {
  const response = await fetch(url(path, options.query), {
    method: options.method ?? 'GET',
    headers: {
      ...headers(),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const text = await response.text();
  /** @type {any} */
  let body;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = { text };
  }
  if (!response.ok)
    throw new ApiError(
      response.status,
      body?.error?.code ?? 'HTTP_' + response.status,
      body?.error?.message ?? `The server answered ${response.status}.`,
    );
  return body;
}

/**
 * Reads a server-sent event stream until it ends or `signal` aborts, calling `onEvent` for each
 * event (heartbeats skipped).
 * @param {string} path
 * @param {Record<string, string | number | undefined>} query
 * @param {(event: string, data: any) => void} onEvent
 * @param {AbortSignal} signal
 */
export async function stream(path, query, onEvent, signal) {
  const response = await fetch(url(path, query), { headers: headers(), signal });
  if (!response.ok || response.body === null) {
    /** @type {any} */
    const body = await response.json().catch(() => null);
    throw new ApiError(
      response.status,
      body?.error?.code ?? 'HTTP_' + response.status,
      body?.error?.message ?? `The server answered ${response.status}.`,
    );
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (event === 'ping' || data.length === 0) continue;
      let parsed;
      try {
        parsed = JSON.parse(data.join('\n'));
      } catch {
        parsed = data.join('\n');
      }
      onEvent(event, parsed);
    }
  }
}

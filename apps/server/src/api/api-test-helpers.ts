// What the API tests share: bearer-token requests against a served API, and its JSON bodies.

/** A response body of the API: an error, or whatever the route returns. */
export type ApiBody = { error: { code: string; message: string } } & Record<string, unknown>;

/** Reads a response's JSON body. */
export const readBody = async (response: Response): Promise<ApiBody> =>
  (await response.json()) as ApiBody;

/** Sends `method path` to the API at `base`, with a bearer token and a JSON body when given. */
export function apiCall(
  base: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** Resolves once `check` is true, polling every 10 ms; rejects after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An MCP `initialize` request, as a client opens a gateway session with it. */
export const MCP_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'test', version: '1' },
  },
};

/** POSTs {@link MCP_INITIALIZE} to the gateway at `${base}/mcp`, with `headers` beside MCP's. */
export function initializeMcp(
  base: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(MCP_INITIALIZE),
  });
}

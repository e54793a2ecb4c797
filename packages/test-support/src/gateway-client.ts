// A tenant's MCP session over plain HTTP for the scale benchmarks: initialize, describe a tool,
// then calls, each timed. With retries on, a call that fails (a dead process, a session the
// balancer lost: 404, a 502) opens a new session and is sent again, as a client of an
// idempotent tool does.
const PROTOCOL = '2025-11-25';

/** How one call ended. */
export interface CallOutcome {
  readonly ok: boolean;
  /** From the first attempt to the answer, retries included. */
  readonly ms: number;
  readonly attempts: number;
  readonly error?: string;
}

interface RpcAnswer {
  readonly status: number;
  readonly message?: {
    result?: { isError?: boolean; content?: { text?: string }[] };
    error?: { message: string };
  };
  readonly sessionId?: string;
  /** For a status other than 200: who answered it (a backend, or the balancer) and its body. */
  readonly refusal?: string;
}

/** One tenant's session with the gateway at `base` (through the balancer). */
export class GatewaySession {
  #sessionId: string | undefined;
  #nextId = 1;

  constructor(
    private base: string,
    private readonly token: string,
    private readonly options: { retries?: number; describe?: readonly string[] } = {},
  ) {}

  /** Opens the session and describes the tools it will call. */
  async open(): Promise<void> {
    this.#sessionId = undefined;
    const init = await this.#rpc('initialize', {
      protocolVersion: PROTOCOL,
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    if (init.status !== 200 || init.sessionId === undefined)
      throw new Error(`initialize answered ${init.status}${init.refusal ?? ''}`);
    this.#sessionId = init.sessionId;
    await this.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if ((this.options.describe ?? []).length > 0) {
      const described = await this.#rpc('tools/call', {
        name: 'describe_tools',
        arguments: { tool_ids: this.options.describe },
      });
      if (described.status !== 200 || described.message?.result?.isError === true)
        throw new Error(`describe_tools answered ${described.status}`);
    }
  }

  /** Calls a meta-tool; retried (with a new session when the old one is gone) if asked to. */
  async call(name: string, args: object): Promise<CallOutcome> {
    const started = performance.now();
    const retries = this.options.retries ?? 0;
    let error = '';
    for (let attempt = 1; attempt <= retries + 1; attempt += 1) {
      try {
        if (this.#sessionId === undefined) await this.open();
        const answer = await this.#rpc('tools/call', { name, arguments: args });
        if (
          answer.status === 200 &&
          answer.message?.result !== undefined &&
          answer.message.result.isError !== true
        )
          return { ok: true, ms: performance.now() - started, attempts: attempt };
        error =
          answer.status !== 200
            ? `HTTP ${answer.status}`
            : (answer.message?.error?.message ??
              answer.message?.result?.content?.[0]?.text ??
              'no result');
        // The session is gone (its process died or restarted): the next attempt opens another.
        if (answer.status !== 200) this.#sessionId = undefined;
      } catch (thrown) {
        error = (thrown as Error).message;
        this.#sessionId = undefined;
      }
      if (attempt <= retries) await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
    return {
      ok: false,
      ms: performance.now() - started,
      attempts: retries + 1,
      error: error.slice(0, 200),
    };
  }

  /** Sends the session's next requests to `base`: another process, as a balancer may. */
  moveTo(base: string): void {
    this.base = base;
  }

  /** Ends the session (DELETE /mcp); errors are ignored. */
  async close(): Promise<void> {
    if (this.#sessionId === undefined) return;
    await fetch(`${this.base}/mcp`, { method: 'DELETE', headers: this.#headers() }).catch(
      () => undefined,
    );
    this.#sessionId = undefined;
  }

  #headers(): Record<string, string> {
    return {
      authorization: `Bearer ${this.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.#sessionId === undefined
        ? {}
        : { 'mcp-session-id': this.#sessionId, 'mcp-protocol-version': PROTOCOL }),
    };
  }

  async #post(body: object): Promise<Response> {
    const response = await fetch(`${this.base}/mcp`, {
      method: 'POST',
      headers: this.#headers(),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return response;
  }

  async #rpc(method: string, params: object): Promise<RpcAnswer> {
    const id = this.#nextId++;
    const response = await this.#post({ jsonrpc: '2.0', id, method, params });
    const text = await response.text();
    const sessionId = response.headers.get('mcp-session-id') ?? undefined;
    if (response.status !== 200) {
      // The balancer names the backend of what it forwarded; its own refusals name none.
      const from = response.headers.get('x-balancer-backend') ?? 'the balancer';
      return { status: response.status, refusal: ` (from ${from}: ${text.slice(0, 160)})` };
    }
    // A JSON body, or server-sent events whose data lines carry JSON-RPC messages.
    const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          // Priming events carry an empty data line.
          .filter((line) => line.startsWith('data: ') && line.length > 6)
          .map((line) => JSON.parse(line.slice(6)) as { id?: number })
      : [JSON.parse(text) as { id?: number }];
    const message = messages.find((m) => m.id === id) as RpcAnswer['message'];
    return {
      status: response.status,
      ...(message === undefined ? {} : { message }),
      ...(sessionId === undefined ? {} : { sessionId }),
    };
  }
}

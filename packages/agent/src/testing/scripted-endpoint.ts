import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One recorded request to a scripted endpoint, its JSON body parsed. */
export interface RecordedHttpRequest<Body> {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Body;
}

/** What the endpoint sends back for one request. */
export interface EndpointReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Wait this long before answering; a client that hangs up meanwhile gets nothing. */
  readonly delayMs?: number;
}

/** How one model API speaks: its route, its error shape, and how a script step is answered. */
export interface EndpointDialect<Body, Step> {
  /** True for the requests the API serves (the others get `error(404, …)`). */
  serves(method: string, path: string): boolean;
  /** An error body in the API's own shape. */
  error(status: number, message: string): unknown;
  /** The reply to one request, given the script's next step; `index` counts replies. */
  answer(step: Step, request: RecordedHttpRequest<Body>, index: number): EndpointReply;
}

/** One script step: a step, or a function of the request that returns one. */
export type ScriptEntry<Body, Step> = Step | ((request: RecordedHttpRequest<Body>) => Step);

/** A running scripted endpoint. */
export interface ScriptedEndpoint<Body, Step> {
  /** The base URL to give the SDK. */
  readonly url: string;
  readonly requests: RecordedHttpRequest<Body>[];
  /** Appends steps to the script. */
  push(...steps: ScriptEntry<Body, Step>[]): void;
  /** Steps not yet played. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * The HTTP half every scripted model API shares: loopback only, every request recorded with its
 * JSON body, one script step per request (a function step sees the request), and a 500 that
 * says so, marked not to be retried, once the script has ended.
 */
export async function startScriptedEndpoint<Body, Step extends object>(
  dialect: EndpointDialect<Body, Step>,
  script: readonly ScriptEntry<Body, Step>[],
): Promise<ScriptedEndpoint<Body, Step>> {
  const steps = [...script];
  const requests: RecordedHttpRequest<Body>[] = [];
  let counter = 0;
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const send = ({ status, body, headers = {} }: EndpointReply) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${++counter}`,
        'x-request-id': `req_${counter}`,
        ...headers,
      });
      res.end(JSON.stringify(body));
    };
    if (!dialect.serves(method, path)) {
      send({ status: 404, body: dialect.error(404, `no route ${method} ${path}`) });
      return;
    }
    let body: Body;
    try {
      body = JSON.parse(text) as Body;
    } catch {
      send({ status: 400, body: dialect.error(400, 'body is not JSON') });
      return;
    }
    const recorded: RecordedHttpRequest<Body> = { method, path, headers: req.headers, body };
    requests.push(recorded);
    const next = steps.shift();
    if (next === undefined) {
      send({
        status: 500,
        body: dialect.error(500, 'the scripted server has no more steps'),
        headers: { 'x-should-retry': 'false' },
      });
      return;
    }
    const reply = dialect.answer(
      typeof next === 'function' ? next(recorded) : next,
      recorded,
      counter,
    );
    if (reply.delayMs !== undefined && (await hungUp(req, res, reply.delayMs))) return;
    send(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...more) => {
      steps.push(...more);
    },
    remaining: () => steps.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Waits `delayMs`; true when the client hung up first (the SDK aborted).
function hungUp(
  req: IncomingMessage,
  res: { writableEnded: boolean },
  delayMs: number,
): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), delayMs);
    req.once('close', () => {
      if (!res.writableEnded) {
        clearTimeout(timer);
        resolve(true);
      }
    });
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// The small load balancer of the scale benchmarks and the session tests, on loopback: requests
// go round-robin to the backends that answer /ready (to all when none does). Sticky (the
// default): a request carrying an Mcp-Session-Id goes to the backend that created that session
// (learned from its response header), the README's optimisation (fewer database reads). Not
// sticky: every request goes round-robin, as a Kubernetes Service or a plain cloud balancer
// does. A backend that refuses the connection is skipped for the next one, as real balancers
// retry a request never sent (nginx's proxy_next_upstream error).
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { latencyStats, type LatencyStats } from '@mcp-agent/core/testing';

/** A running balancer. */
export interface Balancer {
  readonly url: string;
  /** Replaces the backends (base URLs); sessions of a removed one go elsewhere (and get 404). */
  setBackends(urls: readonly string[]): void;
  /**
   * Requests forwarded per backend; requests it answered itself (503: no backend, 502: the
   * backend failed); and its /ready probes: how each ended and how long they took.
   */
  stats(): {
    forwarded: Record<string, number>;
    failed: number;
    /** The upstream failures by error code (ECONNRESET: a kept-alive socket the backend closed). */
    upstreamErrors: Record<string, number>;
    noBackend: number;
    sessions: number;
    probes: ProbeStats;
  };
  close(): Promise<void>;
}

/** The balancer's /ready probes: how many passed, were refused (not 200), timed out or failed. */
export interface ProbeStats {
  readonly passed: number;
  readonly refused: number;
  readonly timedOut: number;
  readonly failed: number;
  /** Latency of the probes that were answered (ms). */
  readonly answeredMs: LatencyStats;
  /** Checks after which no backend was passing. */
  readonly noneHealthy: number;
}

// Probe latencies kept at most, for the percentiles (the newest are kept).
const MAX_PROBE_SAMPLES = 10_000;
// Sessions remembered at most (the oldest forgotten first), like a stick table's size.
// Times one request is sent again (a refused connection, a reset kept-alive one).
const MAX_RETRIES = 4;
const MAX_SESSIONS = 100_000;

/**
 * Starts a balancer over `backends`, health-checking each every `healthMs` (default 250);
 * `sticky: false` routes every request round-robin.
 */
export async function startBalancer(
  backends: readonly string[],
  options: { healthMs?: number; sticky?: boolean } = {},
): Promise<Balancer> {
  const sticky = options.sticky ?? true;
  let all = [...backends];
  const healthy = new Set(all);
  const sessions = new Map<string, string>();
  const forwarded: Record<string, number> = {};
  let failed = 0;
  let noBackend = 0;
  const upstreamErrors: Record<string, number> = {};
  let next = 0;
  const probes = { passed: 0, refused: 0, timedOut: 0, failed: 0, noneHealthy: 0 };
  const probeMs: number[] = [];
  // An idle connection to a backend is closed after 60 s, as nginx's upstream keepalive_timeout
  // and an AWS ALB's idle timeout do: a backend must keep it open longer (the server: 65 s).
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 60_000 });

  const pick = (): string | undefined => {
    // When no backend passed its last check, all of them are tried, as real balancers fail
    // open (Envoy's panic threshold, an ALB with no healthy target): a slow /ready on a loaded
    // machine must not turn into refusals the servers never made.
    const passing = all.filter((url) => healthy.has(url));
    const live = passing.length > 0 ? passing : all;
    if (live.length === 0) return undefined;
    next = (next + 1) % live.length;
    return live[next];
  };
  const route = (req: IncomingMessage): string | undefined => {
    const session = req.headers['mcp-session-id'];
    const stuck = sticky && typeof session === 'string' ? sessions.get(session) : undefined;
    return stuck !== undefined && all.includes(stuck) ? stuck : pick();
  };

  const server: Server = createServer((req, res) => {
    // Read whole first (bodies here are small): a backend that refuses the connection is
    // skipped and the same request goes to the next.
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), route(req), new Set()));
  });

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    target: string | undefined,
    tried: Set<string>,
    retries = 0,
  ): void {
    if (target === undefined) {
      noBackend += 1;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"no backend"}');
      return;
    }
    tried.add(target);
    const to = new URL(req.url ?? '/', target);
    const upstream = request(
      to,
      { method: req.method, headers: { ...req.headers, host: to.host }, agent },
      (response) => {
        const session = response.headers['mcp-session-id'];
        if (typeof session === 'string' && !sessions.has(session)) {
          sessions.set(session, target);
          if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
        }
        if (req.method === 'DELETE' && typeof req.headers['mcp-session-id'] === 'string')
          sessions.delete(req.headers['mcp-session-id']);
        forwarded[target] = (forwarded[target] ?? 0) + 1;
        res.writeHead(response.statusCode ?? 502, {
          ...response.headers,
          'x-balancer-backend': target,
        });
        response.pipe(res);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!res.headersSent && retries < MAX_RETRIES) {
        // A kept-alive connection the backend closed meanwhile (a draining process closes its
        // idle ones): the request was never read, and goes again (Node's documented retry).
        if (upstream.reusedSocket && error.code === 'ECONNRESET') {
          forward(req, res, body, target, tried, retries + 1);
          return;
        }
        // Never reached (the process is gone): the next backend not tried yet takes it.
        if (error.code === 'ECONNREFUSED') {
          healthy.delete(target);
          const next = all.find((url) => !tried.has(url));
          if (next !== undefined) {
            forward(req, res, body, next, tried, retries + 1);
            return;
          }
        }
      }
      failed += 1;
      const code = error.code ?? error.name;
      upstreamErrors[code] = (upstreamErrors[code] ?? 0) + 1;
      if (!res.headersSent)
        res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"bad gateway"}');
      else res.destroy();
    });
    // A client that went away (a stream it stopped reading) ends the upstream request too.
    res.once('close', () => upstream.destroy());
    upstream.end(body);
  }
  // Clients' idle connections are kept 60 s, as an ALB's are; Node's 5 s would close one a
  // client is reusing (its request then fails with "fetch failed").
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let checking = false;
  const health = setInterval(() => {
    if (checking) return;
    checking = true;
    void Promise.all(
      all.map(async (url) => {
        const started = performance.now();
        const ok = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(1_000) })
          .then(async (response) => {
            await response.arrayBuffer();
            probeMs.push(performance.now() - started);
            if (probeMs.length > MAX_PROBE_SAMPLES) probeMs.shift();
            if (response.status === 200) probes.passed += 1;
            else probes.refused += 1;
            return response.status === 200;
          })
          .catch((thrown: unknown) => {
            if ((thrown as Error).name === 'TimeoutError') probes.timedOut += 1;
            else probes.failed += 1;
            return false;
          });
        if (ok) healthy.add(url);
        else healthy.delete(url);
      }),
    ).finally(() => {
      checking = false;
      if (all.length > 0 && all.every((url) => !healthy.has(url))) probes.noneHealthy += 1;
    });
  }, options.healthMs ?? 250);
  health.unref();

  return {
    url: `http://127.0.0.1:${port}`,
    setBackends(urls) {
      all = [...urls];
      for (const url of all) healthy.add(url);
      for (const url of [...healthy]) if (!all.includes(url)) healthy.delete(url);
    },
    stats: () => ({
      forwarded: { ...forwarded },
      failed,
      upstreamErrors: { ...upstreamErrors },
      noBackend,
      sessions: sessions.size,
      probes: { ...probes, answeredMs: latencyStats(probeMs) },
    }),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(health);
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

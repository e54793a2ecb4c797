import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the test server misbehaves, when told to. */
export type EmbeddingFailure = 'http-500' | 'malformed' | 'hang' | 'reset';

/** One request the test server received. */
export interface RecordedEmbeddingRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: {
    readonly model?: unknown;
    readonly input?: unknown;
    readonly encoding_format?: unknown;
    readonly dimensions?: unknown;
  };
}

/** Options of {@link startTestEmbeddingServer}. */
export interface TestEmbeddingServerOptions {
  /** Vector size; default 64. */
  readonly dimensions?: number;
  /** Groups of words that mean one thing: each group shares an axis ("horoscope", "zodiac"). */
  readonly concepts?: readonly (readonly string[])[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  readonly apiKey?: string;
}

/** A running deterministic embedding server. */
export interface TestEmbeddingServer {
  /** The base URL, as an OpenAI-compatible client takes it (`http://127.0.0.1:<port>/v1`). */
  readonly url: string;
  /** Every request, in order. */
  readonly requests: readonly RecordedEmbeddingRequest[];
  /** Texts embedded so far, over every request answered. */
  readonly embeddedTexts: number;
  /** Answers every request after the next `okRequests` with `failure`; `undefined` heals it. */
  failAfter(okRequests: number, failure: EmbeddingFailure | undefined): void;
  close(): Promise<void>;
}

/**
 * The vector the test server gives `text`: words hashed to signed axes (concept groups first,
 * one axis each), summed and normalised. Deterministic, and alike for texts sharing words or
 * concepts, which is all the tests of the wire format, caching and fusion need.
 */
export function deterministicEmbedding(
  text: string,
  options: Pick<TestEmbeddingServerOptions, 'dimensions' | 'concepts'> = {},
): number[] {
  const dimensions = options.dimensions ?? 64;
  const concepts = options.concepts ?? [];
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word === '') continue;
    const concept = concepts.findIndex((group) => group.includes(word));
    if (concept >= 0 && concept < dimensions) {
      vector[concept]! += 1;
      continue;
    }
    const hash = fnv1a(word);
    const free = Math.max(1, dimensions - concepts.length);
    vector[concepts.length + (hash % free)]! += hash & 0x8000_0000 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0)) || 1;
  return vector.map((v) => v / norm);
}

/**
 * An OpenAI-compatible `POST /v1/embeddings` server on loopback that embeds with
 * {@link deterministicEmbedding}: the real wire format, no model download, and failures on cue.
 */
export async function startTestEmbeddingServer(
  options: TestEmbeddingServerOptions = {},
): Promise<TestEmbeddingServer> {
  const requests: RecordedEmbeddingRequest[] = [];
  let embeddedTexts = 0;
  let okLeft = Number.POSITIVE_INFINITY;
  let failure: EmbeddingFailure | undefined;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: RecordedEmbeddingRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // Recorded as empty; answered 400 below.
      }
      requests.push({
        path: request.url ?? '',
        authorization: request.headers.authorization,
        body,
      });
      const reply = (status: number, payload: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (failure !== undefined && okLeft <= 0) {
        if (failure === 'hang') return;
        if (failure === 'reset') return request.socket.destroy();
        if (failure === 'malformed') return reply(200, { data: 'not a list' });
        return reply(500, { error: { message: 'the model crashed', type: 'server_error' } });
      }
      okLeft--;
      if (request.method !== 'POST' || request.url !== '/v1/embeddings')
        return reply(404, { error: { message: `no route ${request.method} ${request.url}` } });
      if (
        options.apiKey !== undefined &&
        request.headers.authorization !== `Bearer ${options.apiKey}`
      )
        return reply(401, {
          error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
        });
      const input = body.input;
      if (
        typeof body.model !== 'string' ||
        !Array.isArray(input) ||
        !input.every((t) => typeof t === 'string')
      )
        return reply(400, {
          error: { message: '"model" and an "input" list of strings are required' },
        });
      embeddedTexts += input.length;
      reply(200, {
        object: 'list',
        model: body.model,
        data: (input as string[]).map((text, index) => ({
          object: 'embedding',
          index,
          embedding: deterministicEmbedding(text, options),
        })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    get embeddedTexts() {
      return embeddedTexts;
    },
    failAfter(okRequests, next) {
      okLeft = next === undefined ? Number.POSITIVE_INFINITY : okRequests;
      failure = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// FNV-1a, 32 bits: a stable hash of a word.
function fnv1a(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, NotReadyError, TimeoutError } from '@mcp-agent/core';
import {
  deterministicEmbedding,
  startTestEmbeddingServer,
  type TestEmbeddingServer,
} from '../testing/index.js';
import { OpenAiCompatibleEmbedder } from './openai-compatible-embedder.js';

const KEY = 'sk-test-embedding-key-0123456789';

describe('OpenAiCompatibleEmbedder', () => {
  let server: TestEmbeddingServer;
  beforeEach(async () => {
    server = await startTestEmbeddingServer({ apiKey: KEY, dimensions: 16 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('speaks the /v1/embeddings wire format, in batches, vectors in input order', async () => {
    const embedder = new OpenAiCompatibleEmbedder({
      url: server.url,
      model: 'test-embed',
      apiKey: KEY,
      batchSize: 2,
    });
    const texts = ['create an issue', 'send an email', 'read a file', ''];
    const vectors = await embedder.embed(texts);
    expect(server.requests.map((r) => r.body.input)).toEqual([
      ['create an issue', 'send an email'],
      ['read a file', ' '],
    ]);
    expect(server.requests[0]).toEqual({
      path: '/v1/embeddings',
      authorization: `Bearer ${KEY}`,
      body: { model: 'test-embed', input: texts.slice(0, 2), encoding_format: 'float' },
    });
    expect(vectors.map((v) => [...v])).toEqual(
      texts.map((t) => [
        ...Float32Array.from(deterministicEmbedding(t || ' ', { dimensions: 16 })),
      ]),
    );
    expect(embedder.model).toBe('test-embed');
  });

  it('accepts the base URL with or without /embeddings, and sends dimensions when asked', async () => {
    const embedder = new OpenAiCompatibleEmbedder({
      url: `${server.url}/embeddings/`,
      model: 'test-embed',
      apiKey: KEY,
      dimensions: 16,
    });
    await embedder.embed(['x']);
    expect(server.requests[0]?.path).toBe('/v1/embeddings');
    expect(server.requests[0]?.body.dimensions).toBe(16);
    expect(embedder.model).toBe('test-embed@16');
  });

  it('refuses bad configuration with a clear error', () => {
    expect(() => new OpenAiCompatibleEmbedder({ url: 'not a url', model: 'm' })).toThrow(
      ConfigError,
    );
    expect(() => new OpenAiCompatibleEmbedder({ url: 'file:///etc', model: 'm' })).toThrow(
      /http or https/,
    );
    expect(() => new OpenAiCompatibleEmbedder({ url: server.url, model: ' ' })).toThrow(
      /model name/,
    );
  });

  it('names each failure and never puts the key in an error', async () => {
    const wrongKey = new OpenAiCompatibleEmbedder({
      url: server.url,
      model: 'm',
      apiKey: 'sk-wrong-key',
    });
    const unauthorised = await wrongKey.embed(['x']).catch((e: unknown) => e);
    expect(ConfigError.isInstance(unauthorised)).toBe(true);
    expect((unauthorised as Error).message).toMatch(/answered 401: Incorrect API key.*API key/);

    const embedder = new OpenAiCompatibleEmbedder({
      url: server.url,
      model: 'm',
      apiKey: KEY,
      timeoutMs: 300,
    });
    const failures = [];
    for (const mode of ['http-500', 'malformed', 'reset', 'hang'] as const) {
      server.failAfter(0, mode);
      failures.push(await embedder.embed(['x']).catch((e: unknown) => e));
    }
    expect(failures.map((e) => (e as Error).message)).toEqual([
      expect.stringMatching(/answered 500: the model crashed/),
      expect.stringMatching(/not an embeddings response: expected 1 embeddings/),
      expect.stringMatching(/cannot be reached/),
      expect.stringMatching(/did not answer within 300 ms/),
    ]);
    expect(NotReadyError.isInstance(failures[0])).toBe(true);
    expect(TimeoutError.isInstance(failures[3])).toBe(true);
    for (const failure of [unauthorised, ...failures])
      expect(JSON.stringify((failure as NotReadyError).toJSON())).not.toContain(KEY);
  });

  it('the caller can cancel a request', async () => {
    server.failAfter(0, 'hang');
    const embedder = new OpenAiCompatibleEmbedder({ url: server.url, model: 'm', apiKey: KEY });
    const controller = new AbortController();
    const pending = embedder.embed(['x'], { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});

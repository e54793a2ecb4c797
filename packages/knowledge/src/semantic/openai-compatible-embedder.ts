import {
  ConfigError,
  type McpAgentError,
  NotReadyError,
  RateLimitedError,
  TimeoutError,
  clip,
} from '@mcp-agent/core';
import type { EmbedOptions, TextEmbedder } from './text-embedder.js';

/** Options of {@link OpenAiCompatibleEmbedder}. */
export interface OpenAiCompatibleEmbedderOptions {
  /**
   * The API's base URL, as the OpenAI SDK takes it (`https://api.openai.com/v1`,
   * `http://127.0.0.1:11434/v1` for Ollama); `/embeddings` is appended unless it is there.
   */
  readonly url: string;
  /** The model name the endpoint knows (`text-embedding-3-small`, `nomic-embed-text`). */
  readonly model: string;
  /** Sent as a bearer token; never logged, never put in an error. */
  readonly apiKey?: string;
  /** Output size, for models that can shorten their vectors (OpenAI's `dimensions`). */
  readonly dimensions?: number;
  /** Texts per request; default 64. */
  readonly batchSize?: number;
  /** Per request; default 15 s. */
  readonly timeoutMs?: number;
  /** Characters of each text sent (the rest is cut, so one long description cannot fail a batch); default 8,000. */
  readonly maxTextLength?: number;
  /** The fetch to use; default the global one. */
  readonly fetch?: typeof fetch;
}

interface EmbeddingsResponse {
  readonly data?: readonly { readonly index?: unknown; readonly embedding?: unknown }[];
}

/**
 * A {@link TextEmbedder} over the OpenAI-compatible `POST /v1/embeddings` API, which OpenAI,
 * Ollama, vLLM, text-embeddings-inference and LM Studio all serve: texts go in batches, each
 * request with a timeout, vectors come back as floats and are checked before use.
 */
export class OpenAiCompatibleEmbedder implements TextEmbedder {
  readonly model: string;
  readonly #endpoint: string;
  readonly #options: OpenAiCompatibleEmbedderOptions;
  readonly #fetch: typeof fetch;

  /**
   * Checks the options only; nothing is sent until the first `embed`.
   *
   * @throws ConfigError (`CONFIG_INVALID`) when `url` is not an http(s) URL or `model` is empty.
   * @example
   * ```ts
   * const embedder = new OpenAiCompatibleEmbedder({
   *   url: 'http://127.0.0.1:11434/v1',
   *   model: 'nomic-embed-text',
   * });
   * ```
   */
  constructor(options: OpenAiCompatibleEmbedderOptions) {
    let endpoint: URL;
    try {
      endpoint = new URL(options.url);
    } catch {
      throw new ConfigError(
        `The embedding endpoint "${options.url}" is not a URL; pass the API's base URL, for example http://127.0.0.1:11434/v1.`,
      );
    }
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
      throw new ConfigError(
        `The embedding endpoint must be http or https, not ${endpoint.protocol}`,
      );
    }
    if (typeof options.model !== 'string' || options.model.trim() === '') {
      throw new ConfigError(
        'An embedding model name is needed, for example text-embedding-3-small.',
      );
    }
    const path = endpoint.pathname.replace(/\/+$/, '');
    endpoint.pathname = path.endsWith('/embeddings') ? path : `${path}/embeddings`;
    this.#endpoint = endpoint.toString();
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
    this.model =
      options.dimensions === undefined ? options.model : `${options.model}@${options.dimensions}`;
  }

  /**
   * One vector per text, in order, in batches of `batchSize`; all or nothing.
   *
   * @throws TimeoutError (`TIMEOUT`) when a request takes longer than `timeoutMs`.
   * @throws NotReadyError (`NOT_READY`) when the endpoint cannot be reached, answers 5xx or
   *   another unexpected status, or answers with something that is not an embeddings response.
   * @throws RateLimitedError (`RATE_LIMITED`) when it answers 429.
   * @throws ConfigError (`CONFIG_INVALID`) when it answers 401 or 403 (the API key) or 400 or
   *   404 (the URL or the model name).
   * @throws the signal's abort reason when `options.signal` aborts.
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    const size = Math.max(1, this.#options.batchSize ?? 64);
    const vectors: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += size)
      vectors.push(...(await this.#request(texts.slice(at, at + size), options.signal)));
    return vectors;
  }

  async #request(
    texts: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<Float32Array[]> {
    const timeoutMs = this.#options.timeoutMs ?? 15_000;
    const maxLength = this.#options.maxTextLength ?? 8_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.#options.apiKey) headers.authorization = `Bearer ${this.#options.apiKey}`;
    let response: Response;
    let body: string;
    try {
      response = await this.#fetch(this.#endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          model: this.#options.model,
          // An empty input is refused by some servers; one space embeds as "nothing".
          input: texts.map((text) => text.slice(0, maxLength) || ' '),
          encoding_format: 'float',
          ...(this.#options.dimensions === undefined
            ? {}
            : { dimensions: this.#options.dimensions }),
        }),
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
      body = await response.text();
    } catch (error) {
      if (timeout.aborted) {
        throw new TimeoutError(
          `The embedding endpoint ${this.#where()} did not answer within ${timeoutMs} ms.`,
          { cause: error },
        );
      }
      if (signal?.aborted) throw error;
      throw new NotReadyError(
        `The embedding endpoint ${this.#where()} cannot be reached: ${this.#clean((error as Error).message)}.`,
        { cause: error },
      );
    }
    if (!response.ok) throw this.#httpError(response.status, body);
    return this.#vectors(body, texts.length);
  }

  #vectors(body: string, count: number): Float32Array[] {
    let parsed: EmbeddingsResponse;
    try {
      parsed = JSON.parse(body) as EmbeddingsResponse;
    } catch {
      throw this.#malformed('the body is not JSON');
    }
    const data = parsed?.data;
    if (!Array.isArray(data) || data.length !== count)
      throw this.#malformed(`expected ${count} embeddings in "data"`);
    const vectors = new Array<Float32Array | undefined>(count);
    data.forEach((item, position) => {
      // Servers answer in order; `index`, when given, says so explicitly.
      const index = typeof item?.index === 'number' ? item.index : position;
      const values = item?.embedding;
      if (!Number.isInteger(index) || index < 0 || index >= count || vectors[index] !== undefined)
        throw this.#malformed(`embedding index ${String(item?.index)} is out of place`);
      if (!Array.isArray(values) || values.length === 0 || !values.every(Number.isFinite))
        throw this.#malformed(
          'an embedding is not a list of numbers (was encoding_format ignored?)',
        );
      vectors[index] = Float32Array.from(values as number[]);
    });
    const dimensions = vectors[0]!.length;
    if (vectors.some((vector) => vector!.length !== dimensions))
      throw this.#malformed('the embeddings differ in length');
    return vectors as Float32Array[];
  }

  #httpError(status: number, body: string): McpAgentError {
    const said = this.#clean(errorMessage(body));
    const message = `The embedding endpoint ${this.#where()} answered ${status}${said ? `: ${said}` : ''}.`;
    if (status === 401 || status === 403)
      return new ConfigError(`${message} Check the API key given for embeddings.`);
    if (status === 404 || status === 400)
      return new ConfigError(
        `${message} Check the URL and the model name "${this.#options.model}".`,
      );
    if (status === 429) return new RateLimitedError(message);
    return new NotReadyError(message);
  }

  #malformed(what: string): McpAgentError {
    return new NotReadyError(
      `The embedding endpoint ${this.#where()} gave an answer that is not an embeddings response: ${what}.`,
    );
  }

  // The endpoint without credentials or query, for messages.
  #where(): string {
    const url = new URL(this.#endpoint);
    url.username = '';
    url.password = '';
    url.search = '';
    return url.toString();
  }

  // Server messages may echo what was sent; the key never reaches an error or a log.
  #clean(text: string): string {
    const key = this.#options.apiKey;
    const cut = clip(text, 300);
    return key ? cut.split(key).join('[redacted]') : cut;
  }
}

// The `error.message` of an OpenAI-style error body, else the body's start.
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    if (typeof parsed.error === 'string') return parsed.error;
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // Not JSON: the text itself.
  }
  return body.trim();
}

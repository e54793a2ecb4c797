import { type McpAgentError, NotReadyError, ServerNotFoundError } from '@mcp-agent/core';

/** The official MCP Registry; `MCP_AGENT_MCP_REGISTRY_URL` names another (a subregistry). */
export const DEFAULT_MCP_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** An input of a registry entry: an argument, an environment variable or a header. */
export interface McpRegistryInput {
  /** The variable's or header's name, or a named argument's flag (`--port`). */
  readonly name?: string;
  /** What the user should put there, as the publisher wrote it: untrusted text. */
  readonly description?: string;
  /** The server cannot start without it. */
  readonly isRequired?: boolean;
  /** A credential: asked for as a secret and stored in the vault, never shown back. */
  readonly isSecret?: boolean;
  /** A fixed value, which may hold `{name}` placeholders filled from `variables`. */
  readonly value?: string;
  /** Used when the user gives nothing. */
  readonly default?: string;
  /** For a positional argument: what the value names (`directory`), in place of `name`. */
  readonly valueHint?: string;
  /** For an argument: positional, or `named` (`--flag value`). */
  readonly type?: 'positional' | 'named';
  /** The inputs behind `{name}` placeholders in `value`. */
  readonly variables?: Readonly<Record<string, McpRegistryInput>>;
}

/** A package of a registry entry (npm, pypi, oci, …) and how to run it. */
export interface McpRegistryPackage {
  /** Where the package is published: `npm`, `pypi`, `oci`, `nuget`, `mcpb`… */
  readonly registryType: string;
  /** Its name there (`@scope/server`, `mcp-server-git`, an image reference). */
  readonly identifier: string;
  /** The package version to run; absent: the registry entry's. */
  readonly version?: string;
  /** The runner the publisher suggests (`npx`, `uvx`, `docker`). */
  readonly runtimeHint?: string;
  /** How the running package is spoken to. */
  readonly transport: {
    /** `stdio`, `streamable-http` or `sse`. */
    readonly type: string;
    /** For an HTTP transport: where the started package listens. */
    readonly url?: string;
  };
  /** Arguments for the runner, before the package (`docker run` flags). */
  readonly runtimeArguments?: readonly McpRegistryInput[];
  /** Arguments for the package itself, after its name. */
  readonly packageArguments?: readonly McpRegistryInput[];
  /** Environment variables the package reads. */
  readonly environmentVariables?: readonly McpRegistryInput[];
}

/** A remote endpoint of a registry entry. */
export interface McpRegistryRemote {
  /** `streamable-http` or `sse`. */
  readonly type: string;
  /** The endpoint; may hold `{name}` placeholders filled from `variables`. */
  readonly url: string;
  /** Headers to send (an API key, usually secret). */
  readonly headers?: readonly McpRegistryInput[];
  /** The inputs behind `{name}` placeholders in `url`. */
  readonly variables?: Readonly<Record<string, McpRegistryInput>>;
}

/** One server of the MCP Registry (its `server.json`), with the registry's own status. */
export interface McpRegistryEntry {
  /** The unique, reverse-DNS name (`io.github.owner/server`): what `get` takes. */
  readonly name: string;
  /** A display name, when the publisher gave one. */
  readonly title?: string;
  /** What the server does, as the publisher wrote it (untrusted); empty when absent. */
  readonly description: string;
  /** The entry's version (the latest, as read here). */
  readonly version: string;
  /** The server's home page. */
  readonly websiteUrl?: string;
  /** Its source code. */
  readonly repository?: {
    /** The repository's URL. */
    readonly url: string;
    /** Where it is hosted (`github`…). */
    readonly source?: string;
  };
  /** Ways to run it locally; empty for a remote-only server. */
  readonly packages: readonly McpRegistryPackage[];
  /** Hosted endpoints; empty for a package-only server. */
  readonly remotes: readonly McpRegistryRemote[];
  /** `active`, `deprecated` or `deleted`, from `_meta["io.modelcontextprotocol.registry/official"]`. */
  readonly status: string | undefined;
}

/** A page of search results. */
export interface McpRegistryPage {
  /** The entries of this page; malformed ones are left out. */
  readonly servers: readonly McpRegistryEntry[];
  /** Pass it as `cursor` for the next page; `undefined` on the last one. */
  readonly nextCursor: string | undefined;
}

/** Options of {@link McpRegistryClient}. */
export interface McpRegistryClientOptions {
  /** The registry's base URL; default {@link DEFAULT_MCP_REGISTRY_URL}. */
  readonly baseUrl?: string;
  /** The fetch to use (a test's, or one through a proxy); default the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
  /** Largest response read; default 4 MiB. */
  readonly maxBytes?: number;
}

const OFFICIAL = 'io.modelcontextprotocol.registry/official';

/**
 * Reads the MCP Registry API (`GET /v0.1/servers?search=…&version=latest`, and
 * `GET /v0.1/servers/{name}/versions/latest`): the official registry, or any registry that
 * serves the same API. Responses are bounded in time and size; a registry that cannot be
 * reached, or answers with something else, is a `NOT_READY` error naming it.
 *
 * @example
 * ```ts
 * const registry = new McpRegistryClient(); // the official one; `baseUrl` for another
 * const { servers } = await registry.search('filesystem', { limit: 5 });
 * const setup = serverConfigFromRegistry(await registry.get(servers[0]!.name), { id: 'files' });
 * if (!setup.ok) console.log('missing' in setup ? setup.missing : setup.unsupported);
 * ```
 */
export class McpRegistryClient {
  /** The registry's base URL, without a trailing slash: named in every error. */
  readonly baseUrl: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;

  constructor(options: McpRegistryClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_MCP_REGISTRY_URL).replace(/\/+$/, '');
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  }

  /**
   * Servers whose name contains `query` (the registry's own substring match), latest versions;
   * `limit` is 1-100 (default 20).
   * @throws NotReadyError (`NOT_READY`) when the registry cannot be reached within the timeout,
   *   answers past `maxBytes`, with an HTTP error, or with something that is not the API.
   */
  async search(
    query: string,
    options: { limit?: number; cursor?: string } = {},
  ): Promise<McpRegistryPage> {
    const url = new URL(`${this.baseUrl}/v0.1/servers`);
    if (query.trim() !== '') url.searchParams.set('search', query.trim());
    url.searchParams.set('version', 'latest');
    url.searchParams.set('limit', String(Math.min(Math.max(1, options.limit ?? 20), 100)));
    if (options.cursor !== undefined) url.searchParams.set('cursor', options.cursor);
    const body = await this.#get(url);
    const list = (body as { servers?: unknown } | null)?.servers;
    if (!Array.isArray(list)) throw this.#unexpected('a server list without "servers"');
    const cursor = (body as { metadata?: { nextCursor?: unknown } }).metadata?.nextCursor;
    return {
      servers: list.flatMap((item) => {
        const entry = toEntry(item);
        return entry === undefined ? [] : [entry];
      }),
      nextCursor: typeof cursor === 'string' && cursor !== '' ? cursor : undefined,
    };
  }

  /**
   * The latest version of the server named exactly `name` (`io.github.owner/server`).
   * @throws ServerNotFoundError (`SERVER_NOT_FOUND`) when the registry has no such server;
   *   NotReadyError as for {@link search}.
   */
  async get(name: string): Promise<McpRegistryEntry> {
    const url = new URL(`${this.baseUrl}/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    const entry = toEntry(await this.#get(url, name));
    if (entry === undefined)
      throw this.#unexpected('a server without name, description or version');
    return entry;
  }

  async #get(url: URL, name?: string): Promise<unknown> {
    let response: Response;
    try {
      response = await this.#fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      const cause =
        error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
      throw new NotReadyError(
        `The MCP Registry at ${this.baseUrl} did not answer (${cause}); check the network, or set MCP_AGENT_MCP_REGISTRY_URL to a registry you can reach.`,
        { details: { registry: this.baseUrl } },
      );
    }
    if (response.status === 404 && name !== undefined) {
      await response.body?.cancel();
      throw new ServerNotFoundError(
        `The MCP Registry at ${this.baseUrl} has no server named "${name.slice(0, 200)}"; search it for the exact name.`,
        { details: { registry: this.baseUrl, name: name.slice(0, 200) } },
      );
    }
    const text = await readBounded(response, this.#maxBytes);
    if (text === undefined) throw this.#unexpected(`an answer larger than ${this.#maxBytes} bytes`);
    if (!response.ok) throw this.#unexpected(`HTTP ${response.status}`);
    try {
      return JSON.parse(text);
    } catch {
      throw this.#unexpected('an answer that is not JSON');
    }
  }

  #unexpected(what: string): McpAgentError {
    return new NotReadyError(
      `The MCP Registry at ${this.baseUrl} answered with ${what}; is it an MCP Registry API (GET /v0.1/servers)?`,
      { details: { registry: this.baseUrl } },
    );
  }
}

// Reads at most `max` bytes of the body; `undefined` when there is more.
async function readBounded(response: Response, max: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// One `ServerResponse` ({server, _meta}) as an entry; anything malformed is skipped.
function toEntry(item: unknown): McpRegistryEntry | undefined {
  const server = (item as { server?: unknown } | null)?.server;
  if (server === null || typeof server !== 'object') return undefined;
  const s = server as Record<string, unknown>;
  if (typeof s.name !== 'string' || typeof s.version !== 'string') return undefined;
  const meta = (item as { _meta?: Record<string, { status?: unknown }> })._meta?.[OFFICIAL];
  return {
    name: s.name,
    ...(typeof s.title === 'string' ? { title: s.title } : {}),
    description: typeof s.description === 'string' ? s.description : '',
    version: s.version,
    ...(typeof s.websiteUrl === 'string' ? { websiteUrl: s.websiteUrl } : {}),
    ...(typeof (s.repository as { url?: unknown } | undefined)?.url === 'string'
      ? { repository: s.repository as { url: string } }
      : {}),
    packages: Array.isArray(s.packages) ? (s.packages as McpRegistryPackage[]) : [],
    remotes: Array.isArray(s.remotes) ? (s.remotes as McpRegistryRemote[]) : [],
    status: typeof meta?.status === 'string' ? meta.status : undefined,
  };
}

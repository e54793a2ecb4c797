import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from '@mcp-agent/core';
import { attemptTimeoutReason, describeAttemptFailure } from './attempt-failure.js';
import type { ConnectionOptions } from './connection-options.js';
import { transportsFor } from './create-transport.js';
import { listAllTools } from './list-all-tools.js';
import { deliverProgressBeforeResponses } from '@mcp-agent/wire';

/** An attempt refused with 401 or 403: another attempt gets the same answer until signing in. */
export class NeedsAuthorization extends Error {}

/** What the connection learns of an attempt while it runs. */
export interface AttemptWatch {
  /** The attempt under way, so that closing mid-discovery ends its process too. */
  readonly started: (attempt: { client: Client; transport: Transport }) => void;
  /**
   * The attempt succeeded. Called before the tools are returned, with no await in between, so
   * a close meanwhile cannot miss the session and leave its process behind.
   */
  readonly connected: (client: Client, transport: Transport) => void;
  /** The attempt failed; `hungAtHandshake` when it got no answer to the handshake in time. */
  readonly failed: (hungAtHandshake: boolean) => void;
}

/**
 * One discovery attempt: initialise and list tools over each transport the config allows, each
 * within `attemptTimeoutMs`, and return the tools of the first that answers. Throws the last
 * failure, as a {@link NeedsAuthorization} when any transport was refused.
 */
export async function connectAndList(
  config: ServerConfig,
  options: ConnectionOptions,
  fetch: typeof globalThis.fetch | undefined,
  watch: AttemptWatch,
): Promise<Tool[]> {
  let lastError: unknown;
  let needsAuthorization = false;
  for (const makeTransport of transportsFor(config, {
    passEnv: options.passEnv,
    wire: options.wire,
    ...(fetch === undefined ? {} : { fetch }),
  })) {
    const transport = makeTransport();
    const client = new Client(
      { name: options.clientInfo.name, version: options.clientInfo.version },
      { capabilities: {} },
    );
    watch.started({ client, transport });
    let timedOut = false;
    try {
      const tools = await withTimeout(
        options.attemptTimeoutMs,
        attemptTimeoutReason(options.attemptTimeoutMs),
        () => (timedOut = true),
        async () => {
          await client.connect(transport);
          if (options.wire === 'lanes') deliverProgressBeforeResponses(transport);
          return listAllTools(client, options.attemptTimeoutMs);
        },
      );
      watch.connected(client, transport);
      return tools;
    } catch (error) {
      watch.failed(timedOut);
      const failure = describeAttemptFailure(error, transport, config);
      // A 401 from either transport of `auto` means signing in, whatever the other said.
      needsAuthorization ||= failure.needsAuthorization;
      lastError = needsAuthorization
        ? new NeedsAuthorization(failure.message)
        : new Error(failure.message);
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
    }
  }
  throw lastError;
}

async function withTimeout<T>(
  ms: number,
  reason: string,
  onTimeout: () => void,
  run: () => Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          onTimeout();
          reject(new Error(reason));
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

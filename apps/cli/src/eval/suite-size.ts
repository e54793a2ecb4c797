// The suite's sizes: its own seven servers (`small`), or those seven with every recorded real
// server's catalog of the benchmark data connected beside them as distractors (`scale`), so the
// inventory collapses to servers and all tools up front costs what it costs at scale.
import type { AgentStack } from '@mcp-agent/agent';
import type { AgentContext } from '@mcp-agent/core';
import { distractorIds, distractorsBeside, type RecordedServer } from './distractor-catalogs.js';
import { startDistractorHost, type DistractorHost } from './distractor-host.js';

/** How many servers a run connects. */
export type SuiteSize = 'small' | 'scale';

/** Every size, the default first. */
export const SUITE_SIZES: readonly SuiteSize[] = ['small', 'scale'];

const CONNECT_BATCH = 40;

/** What the scale variant connected beside the suite's servers. */
export interface ConnectedDistractors {
  readonly servers: number;
  readonly tools: number;
  /** Recordings left out as copies of a connected server (see `distractorsBeside`). */
  readonly leftOut: readonly string[];
  close(): Promise<void>;
}

/**
 * Serves the recorded servers (`readDistractorCatalogs`; those that are not copies of `servers`) and connects each
 * through the stack's registry and pool, as a user adds a server; resolves once every one is
 * ready, or throws naming those that are not.
 */
export async function connectDistractors(
  stack: AgentStack,
  ctx: AgentContext,
  servers: readonly { readonly id: string }[],
  recorded: readonly RecordedServer[],
): Promise<ConnectedDistractors> {
  const manifest = await stack.knowledge.manifest(ctx);
  const chosen = distractorsBeside(
    recorded,
    manifest.servers.map((entry) => entry.tools.map((tool) => tool.spec.name)),
  );
  const ids = distractorIds(
    chosen,
    servers.map((server) => server.id),
  );
  const host: DistractorHost = await startDistractorHost(chosen, ids);
  try {
    for (const config of host.servers) await stack.registry.addServer(ctx, config);
    // A batch at a time: hundreds of connects at once would time each other out.
    const failed = [];
    for (let start = 0; start < ids.length; start += CONNECT_BATCH) {
      const states = await stack.pool.waitForReady(ctx, ids.slice(start, start + CONNECT_BATCH), {
        timeoutMs: 60_000,
      });
      failed.push(...states.filter((state) => state.status !== 'ready'));
    }
    if (failed.length > 0)
      throw new Error(
        `${failed.length} of ${ids.length} distractor servers did not connect: ${failed
          .slice(0, 5)
          .map((state) => `${state.serverId} (${state.lastError ?? state.status})`)
          .join(', ')}`,
      );
  } catch (error) {
    await host.close();
    throw error;
  }
  const chosenSet = new Set(chosen);
  return {
    servers: chosen.length,
    tools: chosen.reduce((sum, server) => sum + server.tools.length, 0),
    leftOut: recorded.filter((server) => !chosenSet.has(server)).map((server) => server.name),
    close: () => host.close(),
  };
}

import type { AgentContext, ServerConfig } from '@mcp-agent/core';
import type { Availability } from '../../store/availability/availability.js';
import type { RegistryEvents } from '../../store/changes/registry-events.js';
import type {
  ConnectionStateUpdate,
  ConnectionStatus,
} from '../../store/repositories/connections.js';
import type { CatalogUpdate } from '../../store/repositories/tool-catalog.js';

/** How the pool should open one tenant's server. */
export interface LaunchPlan {
  /** The definition to launch, secrets included. */
  readonly config: ServerConfig;
  /** Authorised through OAuth: requests carry the tenant's tokens. */
  readonly oauth: boolean;
  /** A tenant's own remote server in a service that accepts public ones only. */
  readonly publicOnly: boolean;
  /**
   * The connection's last recorded state, by this process or another; absent when none was
   * recorded. The pool tries a server that just timed out once, not `attempts` times.
   */
  readonly lastState?: RecordedState;
}

/** A connection's state as last recorded in the store. */
export interface RecordedState {
  /** Where it stood. */
  readonly status: ConnectionStatus;
  /** Why its last attempt failed, or why a caller stopped waiting; `null` after a success. */
  readonly lastError: string | null;
  /** When it was recorded (epoch ms). */
  readonly recordedAt: number;
}

type ServerEvent = 'server-updated' | 'server-removed';

/**
 * What the connection pool needs of the registry, and nothing more: the seam that lets the pool
 * run over an in-memory double (`MemoryPoolStore` in `./testing`). `Registry` implements it.
 */
export interface PoolStore {
  /** The registry's change events (server added, removed, updated…) the pool reacts to. */
  readonly events: {
    /** Calls `listener` on each `event`. */
    on<E extends ServerEvent>(event: E, listener: (...args: RegistryEvents[E]) => void): unknown;
    /** Stops calling a listener given to `on`. */
    off<E extends ServerEvent>(event: E, listener: (...args: RegistryEvents[E]) => void): unknown;
  };
  /** See `Registry.followChangesWhile`: the pool follows other processes' changes while it holds. */
  followChangesWhile?(held: () => boolean): () => void;
  /** The servers in effect for the request (what `warmUp` connects). */
  availability(ctx: AgentContext): Promise<Availability>;
  /** How to open `serverId` for the tenant; `ServerNotFoundError` when it has none. */
  launchPlan(ctx: AgentContext, serverId: string): Promise<LaunchPlan>;
  /** Stores where the tenant's connection to `serverId` stands, for other processes and the UI. */
  recordState(ctx: AgentContext, serverId: string, update: ConnectionStateUpdate): Promise<unknown>;
  /** Replaces the server's cached tool list with `tools` (as listed); says what changed. */
  replaceCatalog(
    ctx: AgentContext,
    serverId: string,
    tools: readonly unknown[],
  ): Promise<CatalogUpdate>;
}

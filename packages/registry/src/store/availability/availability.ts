import type { ActiveServer, Exclusion } from './active-servers.js';
import type { ConnectionState } from '../readiness/connection-state.js';

/** Why a server cannot be used in this request; each code comes with a sentence a user can act on. */
export type UnavailableCode =
  | 'not_connected'
  | 'disabled'
  | 'disabled_in_thread'
  | 'not_allowed'
  | 'needs_auth'
  | 'failed'
  | 'not_ready';

/** The verdict on one server: usable, or why not. */
export type ServerVerdict =
  | {
      /** The server may be used in this request. */
      readonly available: true;
    }
  | {
      /** The server may not be used in this request. */
      readonly available: false;
      /** Why, as a stable code to branch on. */
      readonly code: UnavailableCode;
      /** Why, in a sentence that says what to do (connect, authorise, enable…). */
      readonly reason: string;
    };

/** One server of the tenant with everything a request needs to decide about it. */
export interface ServerAvailability extends ActiveServer {
  /** Why the server is out of this request's set (disabled, thread, allow-list), if it is. */
  readonly excludedBy: Exclusion | undefined;
  /** Credentials allow use: no auth, static secrets, or OAuth with an active account and tokens. */
  readonly authorized: boolean;
  /** The decision from all of the above: what a request uses to include or refuse it. */
  readonly verdict: ServerVerdict;
}

/**
 * The one answer to "may this tenant use this server now", for one request: every server of the
 * tenant after tiers, thread and allow-list, with its authorisation, readiness and catalog
 * version. Built by `Registry.availability(ctx)` in one pass; knowledge, the dispatcher and the
 * agent all read this object instead of asking the registry again. It is a snapshot: a change
 * made after it was built shows in the next request's pass, not in this one.
 *
 * @example
 * ```ts
 * const availability = await registry.availability(ctx);
 * const verdict = availability.check('github');
 * if (!verdict.available) console.log(verdict.code, verdict.reason); // needs_auth: sign in…
 * const names = availability.usable.map((server) => server.id);
 * ```
 */
export class Availability {
  readonly #servers: readonly ServerAvailability[];
  readonly #byId: ReadonlyMap<string, ServerAvailability>;

  constructor(servers: readonly ServerAvailability[]) {
    this.#servers = servers;
    this.#byId = new Map(servers.map((server) => [server.id, server]));
  }

  /** Every server of the tenant, sorted by id, excluded ones included. */
  get servers(): readonly ServerAvailability[] {
    return this.#servers;
  }

  /** The servers in effect for this request: enabled, in the thread, in the allow-list. */
  get active(): ServerAvailability[] {
    return this.#servers.filter((server) => server.excludedBy === undefined);
  }

  /** Active servers that can be used now (authorised, not failed, tools known). */
  get usable(): ServerAvailability[] {
    return this.#servers.filter((server) => server.verdict.available);
  }

  /** One server, or `undefined` when the tenant has none by that id. */
  get(serverId: string): ServerAvailability | undefined {
    return this.#byId.get(serverId);
  }

  /**
   * This availability with readiness taken from the pool's connections (after `waitForReady`):
   * what discovery just learnt, without asking the database again.
   */
  withReadiness(states: readonly ConnectionState[]): Availability {
    const byId = new Map(states.map((state) => [state.serverId, state]));
    return new Availability(
      this.#servers.map((server) => {
        const state = byId.get(server.id);
        if (state === undefined) return server;
        const updated: ActiveServer = {
          ...server,
          status:
            server.status === 'needs_auth' && state.status !== 'ready'
              ? 'needs_auth'
              : state.status,
          lastError: state.lastError,
          toolCount: state.toolCount ?? server.toolCount,
          catalogVersion: state.catalogVersion ?? server.catalogVersion,
        };
        return {
          ...server,
          ...updated,
          verdict: judgeServer(updated, server.excludedBy, server.authorized),
        };
      }),
    );
  }

  /** This availability with every server outside `serverIds` out of the request's set. */
  restrictTo(serverIds: readonly string[]): Availability {
    const keep = new Set(serverIds);
    return new Availability(
      this.#servers.map((server) => {
        if (keep.has(server.id) || server.excludedBy !== undefined) return server;
        return {
          ...server,
          excludedBy: 'not_allowed',
          verdict: judgeServer(server, 'not_allowed', server.authorized),
        };
      }),
    );
  }

  /** Whether `serverId` can be used now, and if not, why in words. */
  check(serverId: string): ServerVerdict {
    return (
      this.#byId.get(serverId)?.verdict ??
      unavailable(
        'not_connected',
        `Server "${serverId.slice(0, 64)}" is not connected for this user; add it first.`,
      )
    );
  }
}

/** The verdict for one server from its tier entry and authorisation; the order is the priority. */
export function judgeServer(
  server: ActiveServer,
  excludedBy: Exclusion | undefined,
  authorized: boolean,
): ServerVerdict {
  const id = server.id;
  switch (excludedBy) {
    case 'disabled':
      return unavailable('disabled', `Server "${id}" is disabled; enable it to use its tools.`);
    case 'disabled_in_thread':
      return unavailable(
        'disabled_in_thread',
        `Server "${id}" is not activated in this conversation.`,
      );
    case 'not_allowed':
      return unavailable('not_allowed', `Server "${id}" is not in this request's allow-list.`);
  }
  if (server.status === 'needs_auth' || !authorized)
    return unavailable('needs_auth', `Server "${id}" needs authorisation; sign in to it again.`);
  if (server.status === 'failed')
    return unavailable('failed', `Server "${id}" failed: ${server.lastError ?? 'unknown error'}.`);
  if (server.toolCount === null)
    return unavailable(
      'not_ready',
      `Server "${id}" has not finished connecting; its tools are not known yet.`,
    );
  return { available: true };
}

function unavailable(code: UnavailableCode, reason: string): ServerVerdict {
  return { available: false, code, reason };
}

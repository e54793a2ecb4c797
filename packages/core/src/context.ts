import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from './clock.js';
import { InvalidArgumentsError } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import { RequestLogger } from './request-logger.js';
import { parseUserId, type UserId } from './user-id.js';

/**
 * A typed place on the context where a later package attaches a handle (the registry,
 * the pool, …) without core knowing its type. Create each slot once, at module level.
 */
export interface ContextSlot<T> {
  /** Names the slot in the error thrown when it is read but was never filled. */
  readonly name: string;
  /** Only carries the type; never read. */
  readonly __type?: T;
}

/**
 * Creates a slot; `name` is used in the error when a slot is read but was never filled. Slots
 * are compared by identity, so two slots with the same name are still two.
 *
 * @example
 * ```ts
 * export const TASK_METER = defineSlot<TaskMeter>('task meter');
 * const ctx = createContext({ userId }).with(TASK_METER, new TaskMeter());
 * ctx.find(TASK_METER)?.addToolCall(serverId, true, 12);
 * ```
 */
export function defineSlot<T>(name: string): ContextSlot<T> {
  return Object.freeze({ name });
}

/**
 * Everything one request carries: who it is for (the tenant), how to log, when to stop,
 * what time it is, and the handles later packages attached. Immutable: derive, never mutate.
 */
export interface AgentContext {
  /** The tenant, canonical ({@link parseUserId}). Every query is scoped by it. */
  readonly userId: UserId;
  /** Unique per request; appears in every log line and result. */
  readonly requestId: string;
  /**
   * The task the request works for: its tool calls' usage is counted under this id. A request
   * is its own task unless its caller says otherwise (a gateway session's calls share one).
   */
  readonly taskId: string;
  /** The conversation, when the caller has one; selects thread-level server activation. */
  readonly threadId: string | undefined;
  /**
   * The request's allow-list of servers, when the caller gave one: only these may be used.
   * It travels on the context so every layer reads the same answer and none re-filters ids.
   */
  readonly allowServers: readonly string[] | undefined;
  /** Bound to userId, requestId and threadId. */
  readonly logger: Logger;
  /** Aborted when the caller cancels. */
  readonly signal: AbortSignal;
  /** The time every deadline, expiry and duration of this request is measured with. */
  readonly clock: Clock;
  /**
   * The value of `slot`; for a handle the request cannot run without.
   *
   * @throws Error (a plain one: a wiring bug, not the caller's) when nothing filled the slot.
   */
  get<T>(slot: ContextSlot<T>): T;
  /** The value of `slot`, or `undefined`. */
  find<T>(slot: ContextSlot<T>): T | undefined;
  /** A new context with `slot` filled; this one is unchanged. */
  with<T>(slot: ContextSlot<T>, value: T): AgentContext;
}

/** Options of {@link createContext}. */
export interface CreateContextOptions {
  /**
   * The tenant: a string that must already be canonical ({@link parseUserId}); one that is not
   * is refused, never trimmed or normalised. It is checked on every call: a holder of a
   * {@link UserId} (from sign-in, or a context's `userId`) calls {@link createCheckedContext}.
   */
  readonly userId: string;
  /** Given when the caller already has one (an HTTP request id); default a random UUID. */
  readonly requestId?: string;
  /** The task the request works for (see {@link AgentContext.taskId}); default `requestId`. */
  readonly taskId?: string;
  /** The conversation, when there is one; a non-empty string. */
  readonly threadId?: string;
  /** Only these servers may be used in this request: at most 500 ids, duplicates dropped. */
  readonly allowServers?: readonly string[];
  /** Default: a logger that drops everything. */
  readonly logger?: Logger;
  /** Aborts the request; default a signal that never aborts. */
  readonly signal?: AbortSignal;
  /** Default {@link systemClock}; tests pass a clock they move by hand. */
  readonly clock?: Clock;
}

/** Options of {@link createCheckedContext}: those of {@link createContext}, the user already a {@link UserId}. */
export interface CheckedContextOptions extends Omit<CreateContextOptions, 'userId'> {
  /** The tenant, checked once before (sign-in, `parseUserId`, or another context's `userId`). */
  readonly userId: UserId;
}

/**
 * Creates the context of one request. Its user id is checked, not repaired: a library caller's
 * id that is not already canonical is refused, because mapping it onto its canonical form could
 * make it another user's. A caller that already holds a {@link UserId} (a gateway session, a
 * task, a signed-in request) makes each request's context with {@link createCheckedContext},
 * which does not check it again.
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) for a user id {@link parseUserId}
 *   refuses (`details.reason` says why), an empty thread id, a task id that is not 1 to 200 characters, or an
 *   `allowServers` that is not a list of at most 500 strings.
 * @example
 * ```ts
 * const ctx = createContext({ userId: 'alice', signal: request.signal, logger });
 * const scoped = ctx.with(registrySlot, registry); // ctx itself is unchanged
 * ```
 */
export function createContext(options: CreateContextOptions): AgentContext {
  return buildContext(parseUserId(options.userId), options);
}

/**
 * Creates the context of one request for a user id already checked: as {@link createContext},
 * without checking the id again. Only a {@link UserId} is accepted (made by {@link parseUserId}
 * at sign-in or at a library entry point), so the type system guarantees the one check
 * happened; a plain string does not compile. For the requests of a session or a task, which
 * share one user: the id is checked once when the session or task starts, not per request.
 *
 * @throws InvalidArgumentsError (`INVALID_ARGUMENTS`) for an empty thread id, a task id that is
 *   not 1 to 200 characters, or an `allowServers` that is not a list of at most 500 strings.
 * @example
 * ```ts
 * const userId = parseUserId(signedIn.user); // once, at sign-in
 * const ctx = createCheckedContext({ userId, signal: request.signal }); // per request
 * ```
 */
export function createCheckedContext(options: CheckedContextOptions): AgentContext {
  return buildContext(options.userId, options);
}

function buildContext(userId: UserId, options: Omit<CreateContextOptions, 'userId'>): AgentContext {
  const threadId = options.threadId;
  if (threadId !== undefined && (typeof threadId !== 'string' || threadId.trim() === '')) {
    throw new InvalidArgumentsError('Invalid thread id: pass a non-empty string or leave it out.');
  }
  // The request's id is written when first read (a log line, an error, its task's usage): a
  // gateway call that logs nothing and counts under its session's task never needs one.
  const shared: RequestShared = {
    requestId: options.requestId,
    logger: options.logger ?? silentLogger,
    bound: undefined,
  };
  const taskId = options.taskId ?? requestIdOf(shared);
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH) {
    throw new InvalidArgumentsError(
      `Invalid task id: pass a string of 1 to ${MAX_TASK_ID_LENGTH} characters or leave it out.`,
    );
  }
  const allowServers = readAllowList(options.allowServers);
  return new RequestContext(
    {
      userId,
      taskId,
      threadId,
      allowServers,
      signal: options.signal ?? new AbortController().signal,
      clock: options.clock ?? systemClock,
    },
    NO_SLOTS,
    shared,
  );
}

type ContextFields = Pick<
  AgentContext,
  'userId' | 'taskId' | 'threadId' | 'allowServers' | 'signal' | 'clock'
>;

// What a context shares with those derived from it, each made when first used: the request's
// id, and its logger (see RequestLogger).
interface RequestShared {
  requestId: string | undefined;
  readonly logger: Logger;
  bound: RequestLogger | undefined;
}

const requestIdOf = (shared: RequestShared): string => (shared.requestId ??= randomUUID());

const NO_SLOTS: ReadonlyMap<ContextSlot<unknown>, unknown> = new Map();

// A class, not an object of closures: one is made per request, and its methods are shared.
class RequestContext implements AgentContext {
  readonly userId: UserId;
  readonly taskId: string;
  readonly threadId: string | undefined;
  readonly allowServers: readonly string[] | undefined;
  readonly signal: AbortSignal;
  readonly clock: Clock;
  readonly #slots: ReadonlyMap<ContextSlot<unknown>, unknown>;
  readonly #shared: RequestShared;

  constructor(
    fields: ContextFields,
    slots: ReadonlyMap<ContextSlot<unknown>, unknown>,
    shared: RequestShared,
  ) {
    this.userId = fields.userId;
    this.taskId = fields.taskId;
    this.threadId = fields.threadId;
    this.allowServers = fields.allowServers;
    this.signal = fields.signal;
    this.clock = fields.clock;
    this.#slots = slots;
    this.#shared = shared;
    Object.freeze(this);
  }

  get requestId(): string {
    return requestIdOf(this.#shared);
  }

  get logger(): Logger {
    const shared = this.#shared;
    return (shared.bound ??= new RequestLogger(shared.logger, () => {
      const { userId, requestId, threadId } = this;
      const bindings: Record<string, string> = { userId, requestId };
      if (threadId !== undefined) bindings.threadId = threadId;
      return bindings;
    }));
  }

  get<T>(slot: ContextSlot<T>): T {
    if (!this.#slots.has(slot)) {
      throw new Error(`The context has no "${slot.name}"; attach it with ctx.with(...) first.`);
    }
    return this.#slots.get(slot) as T;
  }

  find<T>(slot: ContextSlot<T>): T | undefined {
    return this.#slots.get(slot) as T | undefined;
  }

  with<T>(slot: ContextSlot<T>, value: T): AgentContext {
    const slots = new Map(this.#slots);
    slots.set(slot, value);
    return new RequestContext(this, slots, this.#shared);
  }
}

const MAX_ALLOWED_SERVERS = 500;
const MAX_TASK_ID_LENGTH = 200;

function readAllowList(allow: readonly string[] | undefined): readonly string[] | undefined {
  if (allow === undefined) return undefined;
  if (
    !Array.isArray(allow) ||
    allow.length > MAX_ALLOWED_SERVERS ||
    allow.some((id) => typeof id !== 'string')
  ) {
    throw new InvalidArgumentsError(
      `Invalid allowServers: pass at most ${MAX_ALLOWED_SERVERS} server ids as strings, or leave it out.`,
    );
  }
  return Object.freeze([...new Set(allow)]);
}

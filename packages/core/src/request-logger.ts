import type { Logger, LogLevel } from './logger.js';

/**
 * A request's logger, bound to it (`userId`, `requestId`, `threadId`) only when a line is
 * written: most requests write none at the level in force, and a logger's child, and the
 * request id it carries, cost more than the rest of the request's context.
 */
export class RequestLogger implements Logger {
  readonly #parent: Logger;
  readonly #bindings: () => Record<string, string>;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: () => Record<string, string>) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  debug(object: object, message?: string): void {
    this.#write('debug', object, message);
  }

  info(object: object, message?: string): void {
    this.#write('info', object, message);
  }

  warn(object: object, message?: string): void {
    this.#write('warn', object, message);
  }

  error(object: object, message?: string): void {
    this.#write('error', object, message);
  }

  child(bindings: Record<string, unknown>): Logger {
    return this.#bound().child(bindings);
  }

  isLevelEnabled(level: LogLevel): boolean {
    return this.#parent.isLevelEnabled?.(level) ?? true;
  }

  #write(level: LogLevel, object: object, message: string | undefined): void {
    if (!this.isLevelEnabled(level)) return;
    const bound = this.#bound();
    if (message === undefined) bound[level](object);
    else bound[level](object, message);
  }

  #bound(): Logger {
    return (this.#child ??= this.#parent.child(this.#bindings()));
  }
}

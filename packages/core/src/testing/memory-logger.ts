import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../logger.js';

/** A real (pino) logger whose JSON lines are kept in memory for assertions. */
export interface MemoryLogger {
  readonly logger: Logger;
  /** Every line written so far, parsed. */
  lines(): Record<string, unknown>[];
  /** Every line written so far, as written. */
  text(): string;
}

/** Creates a {@link MemoryLogger} at `level` (default `debug`: every line kept). */
export function createMemoryLogger(level: 'debug' | 'info' | 'warn' = 'debug'): MemoryLogger {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  const logger = createLogger({ level, destination });
  const text = () => chunks.join('');
  return {
    logger,
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

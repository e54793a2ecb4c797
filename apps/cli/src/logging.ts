import { createLogger, InvalidArgumentsError, type Logger } from '@mcp-agent/core';

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
type Level = (typeof LEVELS)[number];

/**
 * The CLI's logger: `--verbose` is debug, else `MCP_AGENT_LOG_LEVEL`, else errors only (the
 * commands say what happened themselves). Human-readable on a terminal (pino-pretty), JSON lines
 * otherwise; always on standard error, with secrets redacted.
 */
export async function cliLogger(verbose: boolean): Promise<Logger> {
  const configured = process.env.MCP_AGENT_LOG_LEVEL;
  if (
    configured !== undefined &&
    configured !== '' &&
    !(LEVELS as readonly string[]).includes(configured)
  )
    throw new InvalidArgumentsError(
      `MCP_AGENT_LOG_LEVEL is "${configured.slice(0, 20)}"; use one of ${LEVELS.join(', ')}.`,
    );
  const level: Level = verbose ? 'debug' : ((configured || 'error') as Level);
  if (!process.stderr.isTTY) return createLogger({ level });
  // Loaded only for a person at a terminal.
  const { PinoPretty } = await import('pino-pretty');
  return createLogger({
    level,
    destination: PinoPretty({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname' }),
  });
}

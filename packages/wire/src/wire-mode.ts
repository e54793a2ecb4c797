import { ConfigError } from '@mcp-agent/core';

/**
 * Which MCP wire code runs: `lanes` (the default) answers tool calls on this package's lanes and
 * transports beside the SDK; `sdk` turns every one of them off and runs on the SDK's transports
 * and protocol handling alone.
 */
export type WireMode = 'lanes' | 'sdk';

/** The allowed values of {@link WireMode}, the default first. */
export const WIRE_MODES: readonly WireMode[] = Object.freeze(['lanes', 'sdk'] as const);

/** The environment variable the apps read once at start-up for the {@link WireMode}. */
export const WIRE_VARIABLE = 'MCP_AGENT_WIRE';

/**
 * The {@link WireMode} in `value`; `undefined` or empty is the default, `lanes`. `source` names
 * where the value came from in the error.
 *
 * @throws ConfigError (`CONFIG_INVALID`) naming the value and the allowed ones.
 */
export function parseWireMode(value: string | undefined, source: string = WIRE_VARIABLE): WireMode {
  if (value === undefined || value.trim() === '') return 'lanes';
  const mode = value.trim();
  if ((WIRE_MODES as readonly string[]).includes(mode)) return mode as WireMode;
  throw new ConfigError(
    `${source} is "${mode.slice(0, 40)}"; allowed values: ${WIRE_MODES.join(', ')} ("sdk" runs on the MCP SDK alone, "lanes" is the default).`,
  );
}

/**
 * The {@link WireMode} an environment asks for through `MCP_AGENT_WIRE` (the caller passes its
 * environment: `wireModeFrom(process.env)` in an app's start-up).
 *
 * @throws ConfigError (`CONFIG_INVALID`) for a value other than `lanes` or `sdk`.
 */
export function wireModeFrom(env: Readonly<Record<string, string | undefined>>): WireMode {
  return parseWireMode(env[WIRE_VARIABLE]);
}

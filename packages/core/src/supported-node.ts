import { ConfigError } from './errors.js';

/** The lowest Node.js major version mcp-agent runs on: the sandbox's isolated-vm 7 needs 24. */
export const MIN_NODE_MAJOR = 24;

/**
 * Checks that `version` (default this process's) is at least {@link MIN_NODE_MAJOR}. Every
 * package's entry runs it on import, so an older Node fails with one line saying which Node.js is
 * needed and which one this is, instead of an error from deep inside a dependency.
 *
 * @throws ConfigError (`CONFIG_INVALID`, `details.reason: "node_version"`) on an older Node.js,
 *   with `details.required` and `details.found`.
 */
export function assertSupportedNode(version: string = process.versions.node): void {
  const major = Number(version.split('.')[0]);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return;
  throw new ConfigError(
    `mcp-agent needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${version}. Install Node.js ${MIN_NODE_MAJOR} LTS (https://nodejs.org) and run it again.`,
    { details: { reason: 'node_version', required: `>=${MIN_NODE_MAJOR}`, found: version } },
  );
}

assertSupportedNode();

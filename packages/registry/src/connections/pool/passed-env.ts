import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ConfigError } from '@mcp-agent/core';

/** A process environment. */
type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The host variables a stdio server needs to reach the network the way its user does, passed
 * through by default (`openAgentStack`, the CLI and the server) besides the MCP SDK's safe
 * default environment (HOME, PATH, USER, …) and the server's own `env`: the certificate
 * authorities of a TLS-inspecting proxy, the proxies, and where npm, pip and uv keep their cache
 * and configuration. Without them every `npx -y` server hangs behind such a proxy.
 */
export const DEFAULT_PASSED_ENV: readonly string[] = Object.freeze([
  // Certificate authorities: Node, OpenSSL and curl, Python's requests.
  'NODE_EXTRA_CA_CERTS',
  'NODE_USE_SYSTEM_CA',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  // Proxies, in both spellings tools read.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  // npm (npx): cache, configuration files, registry and its certificates, proxies.
  'npm_config_cache',
  'npm_config_userconfig',
  'npm_config_globalconfig',
  'npm_config_prefix',
  'npm_config_registry',
  'npm_config_cafile',
  'npm_config_strict_ssl',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'npm_config_noproxy',
  'npm_config_offline',
  'npm_config_prefer_offline',
  'NPM_CONFIG_CACHE',
  'NPM_CONFIG_USERCONFIG',
  'NPM_CONFIG_REGISTRY',
  'NPM_CONFIG_CAFILE',
  // pip and uv (uvx): index, certificates, cache.
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'PIP_CERT',
  'UV_INDEX_URL',
  'UV_DEFAULT_INDEX',
  'UV_CACHE_DIR',
  'UV_NATIVE_TLS',
  // Where per-user caches and configuration live on Linux.
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
]);

/** The environment variable that sets which host variables stdio servers get. */
export const PASSED_ENV_VARIABLE = 'MCP_AGENT_PASS_ENV';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The host variables to pass to stdio servers, from `MCP_AGENT_PASS_ENV`: unset means
 * {@link DEFAULT_PASSED_ENV}; otherwise a comma-separated list of names where `default` stands
 * for that set (`default,JAVA_HOME` adds one; an empty value passes none).
 *
 * @throws ConfigError (`CONFIG_INVALID`) naming an entry that is not a variable name.
 *
 * @example
 * ```ts
 * passedEnvFrom({ MCP_AGENT_PASS_ENV: 'default,JAVA_HOME' }); // DEFAULT_PASSED_ENV + JAVA_HOME
 * new ConnectionPool(registry, { passEnv: passedEnvFrom() });
 * ```
 */
export function passedEnvFrom(env: Environment = process.env): readonly string[] {
  const value = env[PASSED_ENV_VARIABLE];
  if (value === undefined) return DEFAULT_PASSED_ENV;
  const names = new Set<string>();
  for (const entry of value.split(',').map((name) => name.trim())) {
    if (entry === '') continue;
    if (entry === 'default') {
      for (const name of DEFAULT_PASSED_ENV) names.add(name);
      continue;
    }
    if (!NAME.test(entry))
      throw new ConfigError(
        `${PASSED_ENV_VARIABLE} lists "${entry.slice(0, 60)}", which is not a variable name; write names separated by commas, "default" for the documented set.`,
      );
    names.add(entry);
  }
  return [...names];
}

/** The values of `names` that are set (and not empty) in `host`. */
export function pickEnv(host: Environment, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = host[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}

/**
 * A stdio server's whole environment: the MCP SDK's safe default (HOME, PATH, USER, …), then the
 * `passed` host variables that are set, then its `declared` env, each winning over the one
 * before. The one place the host's environment is read for a child (`ProcessTransport` takes
 * what this returns and reads nothing itself).
 */
export function childEnvironment(
  declared: Readonly<Record<string, string>>,
  passed: readonly string[],
  host: Environment = process.env,
): Record<string, string> {
  return { ...getDefaultEnvironment(), ...pickEnv(host, passed), ...declared };
}

/**
 * Variables of the documented set that are set on the host but reach the server neither
 * through `passed` nor its own `declared` env: what to name when a server hangs, since a
 * missing proxy or certificate authority is the usual reason.
 */
export function withheldEnv(
  host: Environment,
  passed: readonly string[],
  declared: readonly string[],
): string[] {
  const reaching = new Set([...passed, ...declared]);
  return DEFAULT_PASSED_ENV.filter(
    (name) => !reaching.has(name) && host[name] !== undefined && host[name] !== '',
  );
}

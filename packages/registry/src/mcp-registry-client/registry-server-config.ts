import type { ServerConfigInput } from '@mcp-agent/core';
import type {
  McpRegistryEntry,
  McpRegistryInput,
  McpRegistryPackage,
  McpRegistryRemote,
} from './mcp-registry-client.js';

/** A value the entry needs that nobody gave: an environment variable, a header, an argument. */
export interface MissingInput {
  /**
   * Where the value goes: `env` and `header` values can be passed in the options; an
   * `argument` (or a URL variable) has no option, so the definition must be written by hand.
   */
  readonly kind: 'env' | 'header' | 'argument';
  /** The variable's or header's name, or what the argument names. */
  readonly name: string;
  /** What to put there, as the publisher wrote it (untrusted text). */
  readonly description: string | undefined;
  /** Ask for it as a secret: do not echo it, store it in the vault. */
  readonly secret: boolean;
}

/** Options of {@link serverConfigFromRegistry}. */
export interface RegistryServerOptions {
  /** The id to register it under; default the last part of its name (`io.github.x/weather` → `weather`). */
  readonly id?: string;
  /** Values for its environment variables, by name (they win over the entry's defaults). */
  readonly env?: Readonly<Record<string, string>>;
  /** Values for its headers, by name. */
  readonly headers?: Readonly<Record<string, string>>;
  /** `package` (the default: run it here, npm then PyPI then OCI) or `remote` (its URL). */
  readonly prefer?: 'package' | 'remote';
}

/** What an entry becomes: a definition to add, or what is missing, or why it cannot be run. */
export type RegistryServerConfig =
  | {
      /** A definition was made. */
      readonly ok: true;
      /** The definition, for `Registry.addServer` (which validates it and applies the policy). */
      readonly config: ServerConfigInput;
      /** What it runs or reaches, in words (`npm package @x/y@1.2.0`, `streamable-http remote`). */
      readonly via: string;
    }
  | {
      /** Values are needed first. */
      readonly ok: false;
      /** The required values nobody gave: ask for them, then call again with them. */
      readonly missing: readonly MissingInput[];
      /** What would be run or reached. */
      readonly via: string;
    }
  | {
      /** The entry offers nothing mcp-agent can run. */
      readonly ok: false;
      /** What it offers, and what mcp-agent runs, in a sentence. */
      readonly unsupported: string;
    };

// How each registry type's package runs: the runtime, its default arguments, the package spec.
const RUNNERS: Record<
  string,
  { command: string; args: string[]; spec: (p: McpRegistryPackage) => string }
> = {
  npm: {
    command: 'npx',
    args: ['-y'],
    spec: (p) => (p.version ? `${p.identifier}@${p.version}` : p.identifier),
  },
  pypi: {
    command: 'uvx',
    args: [],
    spec: (p) => (p.version ? `${p.identifier}==${p.version}` : p.identifier),
  },
  oci: {
    command: 'docker',
    args: ['run', '-i', '--rm'],
    spec: (p) =>
      p.version && !/:[^/]*$/.test(p.identifier) ? `${p.identifier}:${p.version}` : p.identifier,
  },
};

/**
 * Turns a registry entry into a server definition: its first stdio package of a type we can
 * run (npm via `npx -y`, PyPI via `uvx`, OCI via `docker run -i --rm`), or its first remote
 * (streamable HTTP or SSE), as `prefer` says, falling back to the other. Arguments, variables
 * and headers take the given values, else the entry's value or default; required ones without
 * any come back as `missing`, so the caller can ask for them. Nothing is run here.
 */
export function serverConfigFromRegistry(
  entry: McpRegistryEntry,
  options: RegistryServerOptions = {},
): RegistryServerConfig {
  const id = options.id ?? suggestedId(entry.name);
  const base = {
    id,
    ...(entry.title === undefined ? {} : { name: entry.title.slice(0, 200) }),
    ...(entry.description === '' ? {} : { description: entry.description.slice(0, 2_000) }),
  };
  const pkg = entry.packages.find(
    (p) => p.transport?.type === 'stdio' && RUNNERS[p.registryType] !== undefined,
  );
  const remote = entry.remotes.find((r) => r.type === 'streamable-http' || r.type === 'sse');
  const order = options.prefer === 'remote' ? [remote, pkg] : [pkg, remote];
  const chosen = order.find((candidate) => candidate !== undefined);
  if (chosen === undefined) {
    const kinds = [
      ...entry.packages.map((p) => `${p.registryType} package over ${p.transport?.type ?? '?'}`),
      ...entry.remotes.map((r) => `${r.type} remote`),
    ];
    return {
      ok: false,
      unsupported: `"${entry.name}" offers ${kinds.join(', ') || 'no package and no remote'}; mcp-agent runs npm, PyPI and OCI packages over stdio, and streamable-http or sse remotes`,
    };
  }
  const missing: MissingInput[] = [];
  if ('registryType' in chosen) {
    const runner = RUNNERS[chosen.registryType] as (typeof RUNNERS)[string];
    const env = inputsToValues(
      chosen.environmentVariables ?? [],
      options.env ?? {},
      'env',
      missing,
    );
    const args = [
      ...runner.args,
      ...(chosen.registryType === 'oci' ? Object.keys(env).flatMap((name) => ['-e', name]) : []),
      ...argumentValues(chosen.runtimeArguments ?? [], missing),
      runner.spec(chosen),
      ...argumentValues(chosen.packageArguments ?? [], missing),
    ];
    const via = `${chosen.registryType} package ${runner.spec(chosen)}`;
    if (missing.length > 0) return { ok: false, missing, via };
    return {
      ok: true,
      config: { ...base, transport: 'stdio', command: runner.command, args, env },
      via,
    };
  }
  const remoteEntry = chosen as McpRegistryRemote;
  const url = fillTemplate(remoteEntry.url, remoteEntry.variables ?? {}, missing);
  const headers = inputsToValues(
    remoteEntry.headers ?? [],
    options.headers ?? {},
    'header',
    missing,
  );
  const via = `${remoteEntry.type} remote ${remoteEntry.url}`;
  if (missing.length > 0) return { ok: false, missing, via };
  return {
    ok: true,
    config: {
      ...base,
      transport: remoteEntry.type === 'sse' ? 'sse' : 'streamable-http',
      url,
      headers,
    },
    via,
  };
}

/** `io.github.acme/weather-server` → `weather-server`: a valid server id. */
export function suggestedId(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  const slug = last
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 64);
  return slug === '' ? 'server' : slug;
}

function inputsToValues(
  inputs: readonly McpRegistryInput[],
  given: Readonly<Record<string, string>>,
  kind: 'env' | 'header',
  missing: MissingInput[],
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const input of inputs) {
    if (input.name === undefined) continue;
    const value = given[input.name] ?? resolved(input, missing);
    if (value !== undefined) values[input.name] = value;
    else if (input.isRequired === true)
      missing.push({
        kind,
        name: input.name,
        description: input.description,
        secret: input.isSecret === true,
      });
  }
  return values;
}

function argumentValues(inputs: readonly McpRegistryInput[], missing: MissingInput[]): string[] {
  return inputs.flatMap((input) => {
    const value = resolved(input, missing);
    const name = input.name ?? input.valueHint ?? 'argument';
    if (value === undefined) {
      if (input.isRequired === true || input.type === 'positional')
        missing.push({
          kind: 'argument',
          name,
          description: input.description,
          secret: input.isSecret === true,
        });
      return [];
    }
    return input.type === 'named' && input.name !== undefined
      ? [`${input.name}=${value}`]
      : [value];
  });
}

// An input's own value (its `{variables}` filled from their defaults), else its default.
function resolved(input: McpRegistryInput, missing: MissingInput[]): string | undefined {
  if (input.value !== undefined) return fillTemplate(input.value, input.variables ?? {}, missing);
  return input.default;
}

function fillTemplate(
  template: string,
  variables: Readonly<Record<string, McpRegistryInput>>,
  missing: MissingInput[],
): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const variable = variables[name];
    if (variable === undefined) return whole;
    const value = variable.value ?? variable.default;
    if (value === undefined)
      missing.push({
        kind: 'argument',
        name,
        description: variable.description,
        secret: variable.isSecret === true,
      });
    return value ?? whole;
  });
}

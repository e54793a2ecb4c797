const warned = new Set<string>();

/**
 * An option under its name, or under the name it had before a rename (issue 31 renamed a
 * server's "provider" names to "server"), so that a caller still sending the old name is obeyed
 * rather than silently ignored. The first use of each old name in a process emits one
 * `DeprecationWarning` (code `MCPAGENT_DEP_009`) saying what to write instead.
 *
 * @example
 * // rateLimitLink({ providers: { github: limit } }) still limits github, and warns once
 * const servers = renamedOption(limits, 'servers', 'providers', 'rateLimits');
 */
export function renamedOption<Options extends object, Name extends keyof Options & string>(
  options: Options,
  name: Name,
  oldName: string,
  where: string,
): Options[Name] | undefined {
  const value = options[name];
  if (value !== undefined) return value;
  const old = (options as Record<string, unknown>)[oldName];
  if (old === undefined) return undefined;
  const key = `${where}.${oldName}`;
  if (!warned.has(key)) {
    warned.add(key);
    process.emitWarning(`${key} is deprecated: write ${where}.${name} (same value).`, {
      type: 'DeprecationWarning',
      code: 'MCPAGENT_DEP_009',
    });
  }
  return old as Options[Name];
}

// The settings a sandbox worker keeps from the server's environment: those that change how
// dates and Intl behave in the isolate. Nothing else, so no model key, database URL, vault key
// or token ever reaches a process that runs tenant code (SBX-33); Node needs none of it.
const KEPT = ['TZ', 'LANG', 'LC_ALL'] as const;

/** The environment a sandbox worker starts with: {@link KEPT} from `env`, when set. */
export function workerEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const name of KEPT) if (env[name] !== undefined) kept[name] = env[name];
  return kept;
}

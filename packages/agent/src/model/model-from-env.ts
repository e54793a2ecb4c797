import type { ModelClient } from './model-client.js';

type Environment = Readonly<Record<string, string | undefined>>;

/** True when a model endpoint is configured in `env` (an API key is set). */
export function isModelConfigured(env: Environment = process.env): boolean {
  return (env.ANTHROPIC_API_KEY ?? '') !== '';
}

/**
 * The model client the environment names. The adapter (and its SDK) is loaded only here, when a
 * task needs it, so importing the agent never loads a model SDK.
 */
export async function createModelClientFromEnv(
  env: Environment = process.env,
): Promise<ModelClient> {
  const { createAnthropicModelClient } = await import('./anthropic-model-client.js');
  return createAnthropicModelClient({ env });
}

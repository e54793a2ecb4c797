import type { AgentContext, JsonObject, ToolSpec } from '@mcp-agent/core';
import type { ActiveServersOptions, ProviderSummary, RegistryManager } from '@mcp-agent/registry';
import { summarizeParameters, type ParameterSummary } from './views/schema-summary.js';

/** One tool of the manifest. */
export interface ManifestTool {
  readonly spec: ToolSpec;
  readonly inputParameters: readonly ParameterSummary[];
  readonly outputSchema: JsonObject | undefined;
  readonly available: boolean;
  /** Why not, in words a user can act on; absent when available. */
  readonly reason?: string;
}

/** One provider of the manifest with its tools. */
export interface ManifestProvider {
  readonly provider: ProviderSummary;
  readonly available: boolean;
  readonly reason?: string;
  readonly tools: readonly ManifestTool[];
}

/** A tenant's tools right now, by provider (sorted by id), tools sorted by name. */
export interface ToolManifest {
  readonly providers: readonly ManifestProvider[];
}

/**
 * Builds the manifest of the context's tenant from the registry on every call: it is never
 * cached across requests or tenants, so availability is always current.
 */
export class ToolboxBuilder {
  constructor(private readonly manager: RegistryManager) {}

  async build(ctx: AgentContext, options: ActiveServersOptions = {}): Promise<ToolManifest> {
    const providers = await this.manager.getAvailableProviders(ctx, options);
    const built = await Promise.all(
      providers.map(async (provider): Promise<ManifestProvider> => {
        const specs =
          provider.toolCount === null ? [] : await this.manager.getProviderTools(ctx, provider.id);
        // Availability is a property of the provider for every tool it lists; one check serves all.
        const availability = await this.manager.checkAvailability(
          ctx,
          provider.id,
          specs[0]?.name ?? '',
          options,
        );
        const providerOk = availability.available || availability.code === 'tool_unknown';
        const reason = availability.available || providerOk ? undefined : availability.reason;
        const tools = specs
          .map((spec) => ({
            spec,
            inputParameters: summarizeParameters(spec.inputSchema),
            outputSchema: spec.outputSchema,
            available: providerOk,
            ...(reason === undefined ? {} : { reason }),
          }))
          .sort((a, b) => (a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0));
        return {
          provider,
          available: providerOk,
          ...(reason === undefined ? {} : { reason }),
          tools,
        };
      }),
    );
    return { providers: built };
  }
}

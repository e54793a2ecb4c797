import { compareText, type AgentContext, type JsonObject, type ToolSpec } from '@mcp-agent/core';
import { toToolSpec, type Registry, type ServerAvailability } from '@mcp-agent/registry';
import { summarizeParameters, type ParameterSummary } from './views/schema-summary.js';

/** One tool of the manifest. */
export interface ManifestTool {
  /** The tool as the catalog lists it. */
  readonly spec: ToolSpec;
  /** Its input's top-level parameters, in short. */
  readonly inputParameters: readonly ParameterSummary[];
  /** Its output schema, when it declares one. */
  readonly outputSchema: JsonObject | undefined;
  /** Whether it can be called now. */
  readonly available: boolean;
  /** Why not, in words a user can act on; absent when available. */
  readonly reason?: string;
}

/** One server of the manifest with its tools. */
export interface ManifestServer {
  /** The server and where it stands for this tenant. */
  readonly server: ServerAvailability;
  /** Whether its tools can be called now. */
  readonly available: boolean;
  /** Why not, in words a user can act on; absent when available. */
  readonly reason?: string;
  /** Its tools, sorted by name. */
  readonly tools: readonly ManifestTool[];
}

/** A tenant's tools right now, by server (sorted by id), tools sorted by name. */
export interface ToolManifest {
  /** The tenant's servers, sorted by id. */
  readonly servers: readonly ManifestServer[];
}

/**
 * Builds the manifest of the context's tenant for this request: the servers in effect (from the
 * request's one availability pass) and their cached tools, read in one query. Never cached
 * across requests or tenants, so availability is always current.
 */
export class ToolboxBuilder {
  constructor(private readonly registry: Registry) {}

  /** The tenant's manifest now: one availability pass, one catalog query. */
  async build(ctx: AgentContext): Promise<ToolManifest> {
    const active = (await this.registry.availability(ctx)).active;
    const catalogs = await this.registry.storedToolsOf(
      ctx,
      active.filter((server) => server.toolCount !== null).map((server) => server.id),
    );
    return {
      servers: active.map((server): ManifestServer => {
        const verdict = server.verdict;
        const reason = verdict.available ? undefined : verdict.reason;
        const tools = (catalogs.get(server.id) ?? [])
          .map((tool) => toToolSpec(server.id, tool.raw))
          .map((spec) => ({
            spec,
            inputParameters: summarizeParameters(spec.inputSchema),
            outputSchema: spec.outputSchema,
            available: verdict.available,
            ...(reason === undefined ? {} : { reason }),
          }))
          .sort((a, b) => compareText(a.spec.name, b.spec.name));
        return {
          server,
          available: verdict.available,
          ...(reason === undefined ? {} : { reason }),
          tools,
        };
      }),
    };
  }
}

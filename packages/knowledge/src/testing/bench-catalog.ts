import type { JsonObject, ToolSpec } from '@mcp-agent/core';
import type { ServerAvailability } from '@mcp-agent/registry';
import type { ToolManifest } from '../toolbox-builder.js';
import { summarizeParameters } from '../views/schema-summary.js';
import type { BenchTool } from './bench-data.js';

/**
 * Benchmark catalogs as the product would hold them: server names made into server ids
 * (`@toolsdk.ai/aws-ses-mcp` → `toolsdk-ai-aws-ses-mcp`), tool names with whitespace joined
 * with `_`, as a gateway importing them would have to.
 */
export function toToolSpecs(tools: readonly BenchTool[]): ToolSpec[] {
  const serverIds = new Map<string, string>();
  const used = new Set<string>();
  const serverOf = (server: string) => {
    let id = serverIds.get(server);
    if (id === undefined) {
      const base =
        server
          .toLowerCase()
          .replace(/[^a-z0-9_-]+/g, '-')
          .replace(/^[-_]+|-+$/g, '')
          .slice(0, 56) || 'server';
      id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
      serverIds.set(server, id);
    }
    return id;
  };
  return tools.map((tool) => {
    const serverId = serverOf(tool.server ?? tool.id);
    const name = tool.name.trim().replace(/\s+/g, '_').slice(0, 128) || 'tool';
    return {
      id: `${serverId}.${name}`,
      serverId,
      name,
      description: tool.description ?? '',
      inputSchema: (tool.inputSchema as JsonObject | undefined) ?? { type: 'object' },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as JsonObject } : {}),
    };
  });
}

/** A manifest of specs, every server ready and available, as the inventory view takes it. */
export function manifestOf(specs: readonly ToolSpec[]): ToolManifest {
  const byServer = new Map<string, ToolSpec[]>();
  for (const spec of specs)
    byServer.set(spec.serverId, [...(byServer.get(spec.serverId) ?? []), spec]);
  const servers = [...byServer.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([id, tools]) => {
      const server: ServerAvailability = {
        id,
        scope: 'app',
        transport: 'stdio',
        name: undefined,
        description: undefined,
        status: 'ready',
        lastError: null,
        toolCount: tools.length,
        catalogVersion: 1,
        excludedBy: undefined,
        authorized: true,
        verdict: { available: true },
      };
      return {
        server,
        available: true,
        tools: tools
          .sort((a, b) => (a.name < b.name ? -1 : 1))
          .map((spec) => ({
            spec,
            inputParameters: summarizeParameters(spec.inputSchema),
            outputSchema: spec.outputSchema,
            available: true,
          })),
      };
    });
  return { servers };
}

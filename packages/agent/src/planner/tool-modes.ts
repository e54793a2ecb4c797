import type { AgentContext, JsonObject } from '@mcp-agent/core';
import type { Knowledge } from '@mcp-agent/knowledge';
import type { DeepViewTool } from '@mcp-agent/knowledge';
import type { DirectTool } from '../session/direct-tool.js';
import { modePrompt, systemPrompt } from './prompts.js';

/**
 * How the model reaches the tools. `discovery` (the default): the meta-tools, tools found by
 * search and read on demand. `all-tools`: every tool of every usable server given to the model
 * directly with its schema verbatim, as a plain MCP client does. `code-first`: run_code only,
 * with every tool declared in the system prompt by its description and call signature. The
 * system prompt is the same apart from its tool section, and the loop, budget and dispatch are
 * the same in each, so a task suite can compare them on equal terms.
 *
 * @example
 * ```ts
 * // The same task three ways; compare status, tool calls and tokens.
 * for (const mode of TOOL_MODES) {
 *   const result = await agent.executeTask(task, 'alice', { mode });
 *   console.log(mode, result.status, result.steps.length, result.usage.inputTokens);
 * }
 * ```
 */
export type ToolMode = 'discovery' | 'all-tools' | 'code-first';

/** Every mode, the default first. */
export const TOOL_MODES: readonly ToolMode[] = ['discovery', 'all-tools', 'code-first'];

/** What a mode changes: the system prompt, and the session's tools. */
export interface ModeSurface {
  readonly system: string;
  /** The meta-tools offered; all when absent. */
  readonly metaTools?: readonly string[];
  /** Tools offered under their own names. */
  readonly direct?: readonly DirectTool[];
  /** Tools callable without a describe_tools first (their declarations are in the prompt). */
  readonly described?: readonly string[];
}

/** The surface of `mode` for this request's usable tools. */
export async function modeSurface(
  mode: ToolMode,
  ctx: AgentContext,
  knowledge: Knowledge,
  options: { serverAgents: boolean },
): Promise<ModeSurface> {
  if (mode === 'discovery')
    return { system: systemPrompt(await knowledge.inventoryView(ctx), options) };
  const manifest = await knowledge.manifest(ctx);
  const specs = manifest.servers.flatMap((server) =>
    server.tools.filter((tool) => tool.available).map((tool) => tool.spec),
  );
  if (mode === 'all-tools') {
    const names = new Set<string>();
    const direct = specs.map((spec): DirectTool => {
      const name = uniqueName(`${spec.serverId}__${spec.name}`, names);
      return {
        name,
        toolId: spec.id,
        description: spec.description,
        inputSchema: spec.inputSchema as JsonObject,
      };
    });
    return { system: modePrompt(DIRECT_SECTION), metaTools: ['read_result'], direct };
  }
  const { tools } = await knowledge.deepView(
    ctx,
    specs.map((spec) => spec.id),
  );
  return {
    system: modePrompt({
      howTo: CODE_HOW_TO,
      listing: { heading: 'Tools', text: tools.map(compactDeclaration).join('\n\n') },
    }),
    metaTools: ['run_code', 'read_result'],
    described: tools.map((tool) => tool.tool_id),
  };
}

const DIRECT_SECTION = {
  howTo: [
    'Every tool of the connected servers is in your tool list, named <server>__<tool>: call the ones you need directly.',
  ],
};

const CODE_HOW_TO = [
  'You use the tools by writing code: run_code runs JavaScript in which `await tools.<server>.<tool>(args)` calls a tool. Each tool is declared under "Tools" below: its description, then its call signature. Make several calls in one run_code when you combine their results, and return what you need.',
];

/**
 * A tool as code-first declares it: its description as comment lines, the named types its
 * signature uses, then the call signature, which holds every field with its type. When the deep
 * view had to cut the signature or the schema, the whole view instead: nothing is lost.
 */
export function compactDeclaration(tool: DeepViewTool): string {
  if (tool.notes !== undefined) return JSON.stringify(tool);
  const description = tool.description === '' ? [] : tool.description.trim().split('\n');
  return [
    ...description.map((line) => `// ${line}`.trimEnd()),
    ...(tool.types ?? []).map((type) => `type ${type.name} = ${type.type}`),
    tool.call_signature,
  ].join('\n');
}

// Model APIs accept names of [a-zA-Z0-9_-], at most 64 long; a clash gets a numbered suffix.
function uniqueName(raw: string, taken: Set<string>): string {
  const base = raw.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

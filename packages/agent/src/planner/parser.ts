import { z } from 'zod';
import { describeIssues } from '@mcp-agent/core';
import type { MetaToolName } from './meta-tools.js';

/** A validated command from the model. */
export type Command =
  | {
      readonly name: 'search_tools';
      readonly input: { query: string; limit?: number; providers?: string[] };
    }
  | { readonly name: 'describe_tools'; readonly input: { tool_ids: string[] } }
  | {
      readonly name: 'call_tool';
      readonly input: { tool_id: string; arguments: Record<string, unknown> };
    }
  | {
      readonly name: 'run_code';
      readonly input: { code: string; language?: 'javascript' | 'typescript' };
    }
  | {
      readonly name: 'query_connector';
      readonly input: { connector_id: string; query: string; context?: string };
    };

const schemas = {
  search_tools: z.strictObject({
    query: z.string().trim().min(1).max(2_000),
    limit: z.number().int().min(1).max(20).optional(),
    providers: z.array(z.string()).max(50).optional(),
  }),
  describe_tools: z.strictObject({ tool_ids: z.array(z.string().max(300)).min(1).max(10) }),
  call_tool: z.strictObject({
    tool_id: z.string().min(1).max(300),
    arguments: z.record(z.string(), z.unknown()),
  }),
  run_code: z.strictObject({
    code: z.string().min(1).max(100_000),
    language: z.enum(['javascript', 'typescript']).optional(),
  }),
  query_connector: z.strictObject({
    connector_id: z.string().min(1).max(64),
    query: z.string().min(1).max(4_000),
    context: z.string().max(8_000).optional(),
  }),
} as const;

/**
 * Validates one tool_use of the model. Malformed input, unknown commands and disabled ones come
 * back as an error text the model can act on, never as an exception.
 */
export function parseCommand(
  name: string,
  input: unknown,
  enabled: ReadonlySet<MetaToolName>,
): { ok: true; command: Command } | { ok: false; error: string } {
  if (!Object.hasOwn(schemas, name) || !enabled.has(name as MetaToolName)) {
    return {
      ok: false,
      error: `Unknown command "${name.slice(0, 80)}". Use one of: ${[...enabled].join(', ')}.`,
    };
  }
  const parsed = schemas[name as MetaToolName].safeParse(input);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues).map((i) => `${i.path}: ${i.message}`);
    return { ok: false, error: `Invalid input for ${name}: ${issues.join('; ')}.` };
  }
  // Arguments of call_tool come back as the model sent them (schemas checked by the dispatcher).
  const value =
    name === 'call_tool'
      ? {
          ...(parsed.data as object),
          arguments: (input as { arguments: Record<string, unknown> }).arguments,
        }
      : parsed.data;
  return { ok: true, command: { name, input: value } as Command };
}

import { z } from 'zod';
import { describeIssues, type AgentContext, type JsonObject } from '@mcp-agent/core';
import type { Observation } from './observation.js';

/** What a meta-tool's handler gets besides its input: the request it runs in. */
export interface MetaToolCall {
  /** The request's context: tenant, signal, availability. */
  readonly ctx: AgentContext;
  /** Receives a tool's progress notifications (the gateway forwards them to its client). */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** One meta-tool, defined once: name, description, input schema and handler. */
export interface MetaTool<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType<Input>;
  /**
   * A check by hand of the input's common shape, for a meta-tool called on every request
   * (`call_tool`): true only for input that `input` takes as it is, which is then used without
   * a schema parse; anything else goes to `input`, which decides and words the error.
   */
  readonly accepts?: (input: unknown) => input is Input;
  run(input: Input, call: MetaToolCall): Promise<Observation>;
}

/** A meta-tool as a model or an MCP client lists it: the JSON Schema comes from the zod one. */
export interface MetaToolListing {
  /** The name it is called by: `search_tools`, `call_tool`, … or a direct tool's. */
  readonly name: string;
  /** What it does and when to use it, as the model or client reads it. */
  readonly description: string;
  /** The JSON Schema of its input, without the `$schema` dialect. */
  readonly inputSchema: JsonObject;
}

const listings = new WeakMap<MetaTool<unknown>, MetaToolListing>();

/** The listing of `tool`, its JSON Schema derived once from its zod schema. */
export function listMetaTool(tool: MetaTool<unknown>): MetaToolListing {
  let listing = listings.get(tool);
  if (listing === undefined) {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.input, {
      io: 'input',
      unrepresentable: 'any',
    });
    listing = { name: tool.name, description: tool.description, inputSchema: schema as JsonObject };
    listings.set(tool, listing);
  }
  return listing;
}

/** Validates a call's input; a failure is a sentence naming each bad path, never a throw. */
export function parseMetaToolInput<Input>(
  tool: MetaTool<Input>,
  input: unknown,
): { ok: true; value: Input } | { ok: false; message: string } {
  if (tool.accepts?.(input) === true) return { ok: true, value: input };
  const parsed = tool.input.safeParse(input ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = describeIssues(parsed.error.issues).map((i) => `${i.path}: ${i.message}`);
  return { ok: false, message: `Invalid input for ${tool.name}: ${issues.join('; ')}.` };
}

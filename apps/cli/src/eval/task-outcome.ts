// A run's outcome as the checkers read it: the reply, the world's changes against the state the
// task started from, the tools called, and what the model was shown back.
import type { MCPTaskResult } from '@mcp-agent/core';
import type { Outcome } from './eval-task.js';
import type { EvalWorld } from './eval-world.js';
import { diffWorld, snapshotWorld, type WorldSnapshot } from './world-snapshot.js';

// Meta-tools that show the catalog, not a server's data: what they return is no evidence.
const CATALOG_COMMANDS = new Set(['search_tools', 'describe_tools', 'list_servers']);

/** The outcome of `result` in `world`, which was `fresh` when the task started. */
export function outcomeOf(world: EvalWorld, fresh: WorldSnapshot, result: MCPTaskResult): Outcome {
  return {
    world,
    answer: result.answer ?? '',
    changes: diffWorld(fresh, snapshotWorld(world)),
    toolsUsed: result.toolsUsed,
    observed: result.steps
      .filter((step) => !CATALOG_COMMANDS.has(step.command))
      .map((step) => textsOf(step.observation).join('\n'))
      .join('\n'),
  };
}

// Every string in a command's observation (a tool's text, a script's returned values), and each
// named value also as `name: value`.
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) =>
      typeof v === 'object' ? textsOf(v) : [`${key}: ${textsOf(v).join('')}`, ...textsOf(v)],
    );
  }
  return [];
}

export {
  DEFAULT_MAX_RUNNING_TASKS_PER_USER,
  resolveAgentLimits,
  type AgentLimits,
} from './agent-limits.js';
export { Agent, type AgentOptions, type ExecuteTaskOptions } from './entrypoint.js';
export { openAgentStack, type AgentStack, type OpenAgentStackOptions } from './open-agent.js';
export {
  createAnthropicModelClient,
  DEFAULT_ANTHROPIC_MODEL,
  isModelConfigured,
  type AnthropicModelClientOptions,
} from './model/anthropic-model-client.js';
export type {
  ContentBlock,
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelTool,
} from './model/model-client.js';
export { BudgetTracker, type BudgetLimit } from './planner/budget.js';
export { metaTools, type MetaToolName } from './planner/meta-tools.js';
export { parseCommand, type Command } from './planner/parser.js';
export { runLoop, type LoopDependencies } from './planner/planner.js';
export { PlannerContext } from './planner/planner-context.js';
export { connectorPrompt, systemPrompt } from './planner/prompts.js';

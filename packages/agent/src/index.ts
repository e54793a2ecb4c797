/**
 * The agent: `executeTask` and the {@link Agent} behind it, the stack it runs on, durable tasks,
 * the model interface and the meta-tool session the gateway shares. The model adapters are on
 * subpaths of their own, so that importing this entry loads no model SDK.
 *
 * @module @mcp-agent/agent
 */
export { type AgentLimits } from './agent-limits.js';
export { Agent } from './agent.js';
export type { AgentOptions, ExecuteTaskOptions } from './agent-options.js';
export { DurableTasks, type StartTaskOptions, type TaskStreamItem } from './tasks/durable-tasks.js';
export type { DurableTasksOptions, TaskRetention } from './tasks/durable-tasks-options.js';
export { closeSharedStack, executeTask } from './execute-task.js';
export { openAgentStack, type AgentStack, type OpenAgentStackOptions } from './open-agent.js';
export type { AdmittedTask, StoredTaskAdmitted, TaskAdmission } from './tasks/task-admission.js';
export {
  createModelClientFromEnv,
  isModelConfigured,
  type ModelFromEnvOptions,
  type ModelProvider,
} from './model/model-from-env.js';
export { DEFAULT_MODEL_PRICES, type ModelPrice, type PriceTable } from './model/model-prices.js';
export { InvalidToolInput } from './input/invalid-tool-input.js';
export type {
  ContentBlock,
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelTool,
} from './model/model-client.js';
export { MetaToolSession, type MetaToolSessionOptions } from './session/meta-tool-session.js';
export type { SharedDescribed } from './session/shared-described.js';
export { TOOL_MODES, type ToolMode } from './planner/tool-modes.js';
export type { DirectTool } from './session/direct-tool.js';
export type { MetaToolCall, MetaToolListing } from './session/meta-tool.js';
export { executeTaskTool } from './session/meta-tools/execute-task.js';
export { searchScope } from './session/search-scope.js';
export { taskContextSchema, type TaskContext } from './input/task-context.js';
export type { Observation } from './session/observation.js';

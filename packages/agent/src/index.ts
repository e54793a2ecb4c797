export { type AgentLimits } from './agent-limits.js';
export { Agent, type AgentOptions, type ExecuteTaskOptions } from './agent.js';
export {
  DurableTasks,
  type DurableTasksOptions,
  type StartTaskOptions,
  type TaskRetention,
  type TaskStreamItem,
} from './tasks/durable-tasks.js';
export { closeSharedStack, executeTask } from './execute-task.js';
export { openAgentStack, type AgentStack, type OpenAgentStackOptions } from './open-agent.js';
export type { AdmittedTask, TaskAdmission } from './tasks/task-admission.js';
export {
  createModelClientFromEnv,
  isModelConfigured,
  type ModelProvider,
} from './model/model-from-env.js';
export { DEFAULT_MODEL_PRICES, type ModelPrice, type PriceTable } from './model/model-prices.js';
export { InvalidToolInput } from './model/model-client.js';
export type {
  ContentBlock,
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelTool,
} from './model/model-client.js';
export { MetaToolSession, type MetaToolSessionOptions } from './session/meta-tool-session.js';
export { TOOL_MODES, type DirectTool, type ToolMode } from './session/tool-modes.js';
export type { MetaToolCall, MetaToolListing } from './session/meta-tool.js';
export { executeTaskTool } from './session/meta-tools/execute-task.js';
export { searchScope } from './session/search-scope.js';
export { taskContextSchema, type TaskContext } from './planner/task-context.js';
export type { Observation } from './session/observation.js';

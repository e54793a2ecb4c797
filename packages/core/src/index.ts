// First, so that an unsupported Node.js fails here with one clear line.
export { assertSupportedNode, MIN_NODE_MAJOR } from './supported-node.js';
export type {
  ActionError,
  ActionImage,
  ActionMeta,
  ActionResponse,
  JsonText,
} from './action-response.js';
export {
  clampBudget,
  DEFAULT_BUDGET_CEILINGS,
  resolveBudget,
  resolveBudgetCeilings,
  type Budget,
  type BudgetClamp,
  type ClampedBudget,
} from './budget.js';
export { backoffDelay, sleep, type BackoffOptions } from './backoff.js';
export { canonicalHash } from './canonical-hash.js';
export { systemClock, type Clock } from './clock.js';
export { clip } from './clip.js';
export { compareText } from './compare-text.js';
export {
  configInputs,
  parseServerConfigFile,
  parseServerEntry,
  type ConfigFileFormat,
  type ConfigInput,
  type ParseConfigFileOptions,
  type RejectedServer,
  type ServerConfigFile,
} from './config/config-file.js';
export { type Environment } from './config/interpolate.js';
export { describeIssues, formatPath, type ConfigIssue } from './config/issues.js';
export {
  configError,
  parseServerConfig,
  type RemoteServerConfig,
  type ServerConfig,
  type ServerConfigInput,
  type ServerTransport,
  type StdioServerConfig,
} from './config/server-config.js';
export {
  createCheckedContext,
  createContext,
  defineSlot,
  type AgentContext,
  type CheckedContextOptions,
  type ContextSlot,
  type CreateContextOptions,
} from './context.js';
export { ErrorCode, isErrorCode } from './error-codes.js';
export {
  BudgetExceededError,
  CancelledError,
  ConfigError,
  CredentialError,
  InvalidArgumentsError,
  McpAgentError,
  NotFoundError,
  NotReadyError,
  PayloadTooLargeError,
  PolicyDeniedError,
  ServerNotFoundError,
  QuotaExceededError,
  RateLimitedError,
  SandboxError,
  TimeoutError,
  ToolExecutionError,
  ToolNotFoundError,
  UnauthorizedError,
  type McpAgentErrorOptions,
} from './errors.js';
export { ExpiringCache, type ExpiringCacheOptions } from './expiring-cache.js';
export {
  isJsonObject,
  toJsonSafe,
  type JsonObject,
  type JsonSafeOptions,
  type JsonValue,
} from './json.js';
export {
  createLogger,
  redactSecrets,
  silentLogger,
  type Logger,
  type LoggerOptions,
  type LogLevel,
} from './logger.js';
export { afterTurn } from './after-turn.js';
export { promised } from './promised.js';
export { renamedOption } from './renamed-option.js';
export type { StepEvent, StepEventType } from './step-event.js';
export { instruments, METER_NAME, type Instruments } from './telemetry/instruments.js';
export { isTelemetryObserved } from './telemetry/telemetry-observed.js';
export {
  jsonBytes,
  mcpTrafficObserver,
  observeMcpTraffic,
  type McpExchange,
  type McpTrafficObserver,
} from './telemetry/mcp-traffic.js';
export {
  configureTenantAttribute,
  TENANT_ATTRIBUTE,
  tenantAttributes,
  type TenantAttributeMode,
} from './telemetry/tenant-attribute.js';
export {
  tracedCall,
  type CallEnd,
  type CallOutcome,
  type ExchangeIdentity,
  type TracedCall,
} from './telemetry/traced-call.js';
export {
  captureTraceContext,
  inSpan,
  isTracing,
  markSpanFailed,
  recordInternalSpans,
  SpanKind,
  withinTraceContext,
  type Attributes,
  type Span,
  type SpanStart,
  type TraceContext,
} from './telemetry/tracing.js';
export {
  failedTaskResult,
  type ServerUsage,
  type MCPTaskResult,
  type ModelUsage,
  type TaskStatus,
  type TaskStep,
  type TaskUsage,
  type Usage,
} from './task-result.js';
export { toMcpAgentError } from './to-mcp-agent-error.js';
export {
  formatToolId,
  parseToolId,
  SERVER_ID_PATTERN,
  toolNameProblem,
  type ParsedToolId,
  type ToolId,
} from './tool-id.js';
export type { JsonSchema, ToolAnnotations, ToolSpec } from './tool-spec.js';
export {
  checkUserId,
  parseUserId,
  userIdProblem,
  type UserId,
  type UserIdCheck,
} from './user-id.js';

export {
  Dispatcher,
  type DispatchOptions,
  type DispatchTarget,
  type DispatcherOptions,
  type ReadResultOptions,
  type ToolCallPool,
} from './dispatcher.js';
export { changedToolLink, type ToolApprovals } from './links/changed-tool-link.js';
export { loggingLink } from './links/logging-link.js';
export { DispatchMetrics, type ToolMetrics } from './links/metrics-link.js';
export {
  policyLink,
  type AnnotationHint,
  type Approver,
  type PolicyDecision,
  type PolicyRules,
} from './links/policy-link.js';
export { quotaLink } from './links/quota-link.js';
export { rateLimitLink, type RateLimit, type RateLimits } from './links/rate-limit-link.js';
export { usageLink } from './links/usage-link.js';
export { telemetryLink } from './links/telemetry-link.js';
export { codeToolCaller } from './code-tool-caller.js';
export type { ResourcePool, ServerResources } from './resource-reads.js';
export { type ParameterMapping, type ServerMappings } from './parameter-mapping.js';
export { SchemaValidator, type ValidationIssue } from './schema-validator.js';
export {
  chain,
  SERVER_OPERATIONS,
  type Caller,
  type DispatchLink,
  type Next,
  type ServerOperation,
  type ToolCall,
} from './tool-call.js';

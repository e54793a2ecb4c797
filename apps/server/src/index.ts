export { MemoryEventStore, type EventStoreLimits } from '@mcp-agent/wire';
export { createGatewayServer, type GatewayServerOptions } from './gateway/gateway-server.js';
export {
  createHttpGateway,
  type HttpGateway,
  type HttpGatewayOptions,
} from './gateway/http-gateway.js';
export { serveHttpGateway } from './gateway/serve-http-gateway.js';
export {
  serveStdioGateway,
  type StdioGateway,
  type StdioGatewayOptions,
} from './gateway/stdio-gateway.js';
export {
  StaticTokenVerifier,
  type TokenVerifier,
  type VerifiedToken,
} from './auth/token-verifier.js';
export { type AuthConfig } from './auth/auth-config.js';
export {
  JwtVerifier,
  protectedResourceAudiences,
  type JwtAlgorithm,
  type JwtVerifierOptions,
} from './auth/jwt-verifier.js';
export { type ProtectedResource } from './auth/protected-resource.js';
export { tokenDigest } from './auth/token-digest.js';
export {
  addToken,
  readTokenFile,
  revokeToken,
  type TokenEntry,
  type TokenFile,
} from './auth/token-file.js';
export { TokenFileVerifier, type TokenFileVerifierOptions } from './auth/token-file-verifier.js';
export { createHttpApi, type HttpApiOptions } from './api/http-api.js';
export type { PublicUrlOptions } from './api/public-url.js';
export { serveHttpApi } from './api/serve-api.js';
export { type OperatorLimits } from './operator-limits.js';
export { type ServerLimits } from './server-limits.js';
export { OperatorToken } from './auth/operator-token.js';
export {
  McpTraceLog,
  type McpTraceEntry,
  type McpTraceLogLimits,
} from './telemetry/mcp-trace-log.js';
export type { ObservedSources } from './telemetry/process-gauges.js';
export {
  startTelemetry,
  type StartTelemetryOptions,
  type Telemetry,
} from './telemetry/start-telemetry.js';
export {
  type OtlpTarget,
  type SamplerName,
  type TelemetryConfig,
} from './telemetry/telemetry-config.js';
export {
  LogBuffer,
  type LogBufferLimits,
  type LogEntry,
  type LogFilter,
  type LogLevel,
} from './ui/log-buffer.js';
export { observabilityRoutes, type ObservabilityOptions } from './ui/observability-routes.js';

export {
  DEFAULT_EVENT_STORE_LIMITS,
  MemoryEventStore,
  SessionEventStore,
  type EventStoreLimits,
} from './gateway/event-store.js';
export { createGatewayServer, type GatewayServerOptions } from './gateway/gateway-server.js';
export {
  createHttpGateway,
  serveHttpGateway,
  type HttpGateway,
  type HttpGatewayOptions,
} from './gateway/http-gateway.js';
export {
  serveStdioGateway,
  type StdioGateway,
  type StdioGatewayOptions,
} from './gateway/stdio-gateway.js';
export { StaticTokenVerifier, type TokenVerifier } from './gateway/token-verifier.js';
export { createHttpApi, type HttpApiOptions } from './api/http-api.js';
export type { PublicUrlOptions } from './api/public-url.js';
export { serveHttpApi } from './api/serve-api.js';
export { TaskStore, type TaskRecord } from './api/task-store.js';
export { LIMIT_FLAGS, readOperatorLimits, type OperatorLimits } from './operator-limits.js';
export { DEFAULT_SERVER_LIMITS, type ServerLimits } from './server-limits.js';

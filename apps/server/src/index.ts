export { MemoryEventStore } from './gateway/event-store.js';
export { createGatewayServer, type GatewayServerOptions } from './gateway/gateway-server.js';
export {
  createHttpGateway,
  serveHttpGateway,
  type HttpGateway,
  type HttpGatewayOptions,
} from './gateway/http-gateway.js';
export { serveStdioGateway } from './gateway/stdio-gateway.js';
export { StaticTokenVerifier, type TokenVerifier } from './gateway/token-verifier.js';
export { createHttpApi, type HttpApiOptions } from './api/http-api.js';
export { serveHttpApi } from './api/serve-api.js';
export { TaskStore, type TaskRecord } from './api/task-store.js';

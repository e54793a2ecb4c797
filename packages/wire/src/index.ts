// The public surface of @mcp-agent/wire: the MCP wire code mcp-agent runs beside the SDK (see
// README.md for what each part replaces, why, and when it goes).

// The switch back to the SDK, and what proves it: how often each part ran.
export {
  parseWireMode,
  WIRE_MODES,
  WIRE_VARIABLE,
  wireModeFrom,
  type WireMode,
} from './wire-mode.js';
export { wireActivity, type WireActivity } from './wire-activity.js';

// Server side: the gateway's transports, call lane and resume store.
export { openCallLane, type CallExtra, type CallHandler } from './server/call-lane.js';
export { SessionTransport, type SessionTransportOptions } from './server/session-transport.js';
export { StdioLineTransport } from './server/stdio-line-transport.js';
export { answerUnreadableLine } from './server/unreadable-line.js';
export {
  DEFAULT_EVENT_STORE_LIMITS,
  MemoryEventStore,
  SessionEventStore,
  type EventStoreLimits,
} from './server/event-store.js';

// Client side: the pool's request lane, process transport and progress ordering.
export { RequestLane, type LaneRequest } from './client/request-lane.js';
export {
  ProcessTransport,
  type ProcessExit,
  type ProcessTransportOptions,
} from './client/process-transport.js';
export { deliverProgressBeforeResponses } from './client/ordered-progress.js';

// Both sides.
export { parseJsonRpcLine } from './shared/json-rpc-line.js';

export { freePort } from './free-port.js';
export { holdSqliteLock, watchEventLoop, type HeldLock } from './lock-holder.js';
export { alive, descendants, liveChildren } from './process-tree.js';
export { serverFixtures, sqliteLockHolder } from './server-fixtures.js';
export { issueTrackerScript } from './issue-tracker-script.js';
export { streamedBody } from './streamed-body.js';
export { lineTransport, serveStdioOverHttp, type StdioHttpBridge } from './stdio-http-bridge.js';
export { CHROMIUM, launchChromium } from './chromium.js';
export { GatewaySession, type CallOutcome } from './gateway-client.js';

// The tenant-scope suite's table of calls: every repository method, called as tenant B with
// tenant A's row ids, and the seed that gives tenant A one row in every table.
import type { AgentContext, ServerConfig } from '@mcp-agent/core';
import type { Registry } from '../../registry.js';
import { repositoriesOf } from '../tenant-store.js';

export const docs: ServerConfig = {
  id: 'docs',
  transport: 'streamable-http',
  url: 'https://docs.example/mcp',
  headers: {},
  enabled: true,
};

/** The ids of one tenant's rows that the other tenant is handed. */
export interface RowIds {
  readonly serverId: string;
  readonly threadId: string;
  readonly field: string;
  readonly connectionId: string;
  readonly accountId: string;
  readonly taskId: string;
  readonly sessionId: string;
}

export type Call = (registry: Registry, ctx: AgentContext, ids: RowIds) => Promise<unknown>;

// Every repository method, called with the ids it is handed; a missing one fails coverage below.
export const reads: Record<string, Call> = {
  'users.get': (r, ctx) => repositoriesOf(r).users.get(ctx),
  'connections.find': (r, ctx, ids) => repositoriesOf(r).connections.find(ctx, ids.serverId),
  'connections.get': (r, ctx, ids) => repositoriesOf(r).connections.get(ctx, ids.serverId),
  'connections.list': (r, ctx) => repositoriesOf(r).connections.list(ctx),
  'connections.resolveUserServer': (r, ctx, ids) =>
    repositoriesOf(r).connections.resolveUserServer(ctx, ids.serverId),
  'catalog.list': (r, ctx, ids) => repositoriesOf(r).catalog.list(ctx, ids.serverId),
  'catalog.listMany': async (r, ctx, ids) => [
    ...(await repositoriesOf(r).catalog.listMany(ctx, [ids.serverId, 'docs'])).values(),
  ],
  'catalog.toolNames': (r, ctx) => repositoriesOf(r).catalog.toolNames(ctx),
  'threads.list': (r, ctx, ids) => repositoriesOf(r).threads.list(ctx, ids.threadId),
  'authConfigs.find': (r, ctx, ids) => repositoriesOf(r).authConfigs.find(ctx, ids.serverId),
  'authConfigs.oauthAuthorizations': (r, ctx) =>
    repositoriesOf(r).authConfigs.oauthAuthorizations(ctx),
  'accounts.find': (r, ctx, ids) => repositoriesOf(r).accounts.find(ctx, ids.serverId),
  'accounts.getSecret': (r, ctx, ids) =>
    repositoriesOf(r).accounts.getSecret(ctx, ids.serverId, ids.field),
  'secrets.get': (r, ctx, ids) =>
    repositoriesOf(r).secrets.get(ctx, { kind: 'connection', id: ids.connectionId }, ids.field),
  'secrets.list': (r, ctx, ids) =>
    repositoriesOf(r).secrets.list(ctx, { kind: 'account', id: ids.accountId }),
  // The registry's own tenant reads, over the repositories.
  'registry.resolveServer': (r, ctx, ids) => r.resolveServer(ctx, ids.serverId),
  'registry.availability': async (r, ctx) => (await r.availability(ctx)).servers,
  'registry.isAuthorized': (r, ctx, ids) => r.isAuthorized(ctx, ids.serverId),
  'registry.tiers': (r, ctx, ids) => r.tiers(ctx, { threadId: ids.threadId }),
  'tasks.get': (r, ctx, ids) => r.tasks.get(ctx, ids.taskId),
  'tasks.list': (r, ctx) => r.tasks.list(ctx),
  'tasks.events': (r, ctx, ids) => r.tasks.events(ctx, ids.taskId),
  'audit.list': (r, ctx) => repositoriesOf(r).audit.list(ctx),
  'gatewaySessions.find': (r, ctx, ids) => r.gatewaySessions.find(ctx, ids.sessionId, 60_000),
  'gatewaySessions.described': (r, ctx, ids) => r.gatewaySessions.described(ctx, ids.sessionId),
};
export const writes: Record<string, Call> = {
  'connections.remove': (r, ctx, ids) => repositoriesOf(r).connections.remove(ctx, ids.serverId),
  'connections.setEnabled': (r, ctx, ids) =>
    repositoriesOf(r).connections.setEnabled(ctx, ids.serverId, false),
  'catalog.replace': (r, ctx, ids) =>
    repositoriesOf(r).catalog.replace(ctx, ids.serverId, [{ name: 'b_tool' }]),
  'connections.recordState': (r, ctx, ids) =>
    repositoriesOf(r).connections.recordState(ctx, ids.serverId, {
      status: 'failed',
      lastError: 'b',
    }),
  'accounts.disconnect': (r, ctx, ids) => repositoriesOf(r).accounts.disconnect(ctx, ids.serverId),
  'secrets.remove': (r, ctx, ids) =>
    repositoriesOf(r).secrets.remove(ctx, { kind: 'account', id: ids.accountId }),
  'threads.deactivate': (r, ctx, ids) => repositoriesOf(r).threads.deactivate(ctx, ids.threadId),
  // Writes that create the caller's own rows under the same ids.
  'users.upsert': (r, ctx) => repositoriesOf(r).users.upsert(ctx),
  'connections.upsertUserServer': (r, ctx, ids) =>
    repositoriesOf(r).connections.upsertUserServer(ctx, {
      id: ids.serverId,
      transport: 'sse',
      url: 'https://b.example/sse',
    }),
  'connections.recordState(app)': (r, ctx) =>
    repositoriesOf(r).connections.recordState(ctx, 'docs', { status: 'ready' }, docs),
  'authConfigs.upsert': (r, ctx, ids) =>
    repositoriesOf(r).authConfigs.upsert(ctx, { serverId: ids.serverId, kind: 'none' }),
  'accounts.upsert': (r, ctx, ids) =>
    repositoriesOf(r).accounts.upsert(ctx, { serverId: ids.serverId, status: 'disconnected' }),
  'accounts.putSecret': (r, ctx, ids) =>
    repositoriesOf(r).accounts.putSecret(ctx, ids.serverId, ids.field, 'b-value'),
  'secrets.put': (r, ctx, ids) =>
    repositoriesOf(r).secrets.put(
      ctx,
      { kind: 'connection', id: ids.connectionId },
      ids.field,
      'b-value',
    ),
  'threads.activate': (r, ctx, ids) =>
    repositoriesOf(r).threads.activate(ctx, ids.threadId, [ids.serverId]),
  'tasks.appendEvents': (r, ctx, ids) =>
    r.tasks.appendEvents(ctx, ids.taskId, [
      { seq: 1, event: { type: 'answer', requestId: 'b', answer: 'b' } },
    ]),
  'tasks.finish': (r, ctx, ids) =>
    r.tasks.finish(ctx, ids.taskId, 'proc_seed', {
      status: 'completed',
      answer: 'b',
      steps: [],
      toolsUsed: [],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      durationMs: 0,
      requestId: 'b',
    }),
  'tasks.requestCancel': (r, ctx, ids) => r.tasks.requestCancel(ctx, ids.taskId),
  // Writes that create the caller's own rows.
  'tasks.admit': (r, ctx) =>
    r.tasks.admit(ctx, {
      task: 'b',
      owner: 'proc_b',
      leaseMs: 60_000,
      maxRunning: 100,
      keepFinished: 100,
    }),
  'rateLimits.take': (r, ctx, ids) =>
    repositoriesOf(r).rateLimits.take(ctx, ids.serverId, { ratePerSecond: 1, burst: 1 }),
  'audit.record': (r, ctx) => repositoriesOf(r).audit.record(ctx, { action: 'server.removed' }),
  'gatewaySessions.initialized': (r, ctx, ids) =>
    r.gatewaySessions.initialized(ctx, ids.sessionId, {
      protocolVersion: '2025-11-25',
      client: { capabilities: {}, clientInfo: { name: 'b' } },
    }),
  'gatewaySessions.addDescribed': (r, ctx, ids) =>
    r.gatewaySessions.addDescribed(ctx, ids.sessionId, ['b.tool']),
  'gatewaySessions.setSearchScope': (r, ctx, ids) =>
    r.gatewaySessions.setSearchScope(ctx, ids.sessionId, 'b'),
  'gatewaySessions.touch': (r, ctx, ids) =>
    r.gatewaySessions.touch(ctx, ids.sessionId, Date.now() + 60_000),
  'gatewaySessions.remove': (r, ctx, ids) => r.gatewaySessions.remove(ctx, ids.sessionId),
  // Creates the caller's own session (a fresh id: session ids are unique).
  'gatewaySessions.admit': (r, ctx) =>
    r.gatewaySessions.admit(ctx, `b-${Math.random()}`, { maxPerUser: 1_000, idleMs: 60_000 }),
};

// Cross-tenant by design (housekeeping, the operator's audit reading): their suites test them.
export const MAINTENANCE = new Set([
  'rateLimits.prune',
  'audit.forOperator',
  'audit.prune',
  // A process's leases and the operator's views of tasks: the task suite tests them.
  'tasks.renewLeases',
  'tasks.cancelRequests',
  'tasks.failLost',
  'tasks.pruneFinished',
  'tasks.recentForOperator',
  'tasks.findForOperator',
  'tasks.runningCount',
  // A process's housekeeping of gateway sessions: the gateway session suite tests them.
  'gatewaySessions.existing',
  'gatewaySessions.sweep',
  // Says only that another user's session has the id, for the gateway's warning log; the caller
  // gets the same 404 either way (the gateway session suite tests both).
  'gatewaySessions.heldByAnother',
]);

// Tenant A's rows, every value carrying `marker` so that any leak of them can be found.
export async function seed(
  registry: Registry,
  ctx: AgentContext,
  ids: Pick<RowIds, 'serverId' | 'threadId' | 'field'>,
  marker: string,
): Promise<RowIds> {
  const connection = await repositoriesOf(registry).connections.upsertUserServer(ctx, {
    id: ids.serverId,
    transport: 'streamable-http',
    url: `https://${marker}.example/mcp`,
    headers: { Authorization: `Bearer ${marker}-token` },
  });
  await repositoriesOf(registry).catalog.replace(ctx, ids.serverId, [{ name: `${marker}_tool` }]);
  await repositoriesOf(registry).connections.recordState(ctx, ids.serverId, {
    status: 'ready',
    lastError: marker,
  });
  await repositoriesOf(registry).connections.recordState(
    ctx,
    'docs',
    { status: 'failed', lastError: marker },
    docs,
  );
  await repositoriesOf(registry).authConfigs.upsert(ctx, {
    serverId: ids.serverId,
    kind: 'oauth',
    settings: { marker },
  });
  const account = await repositoriesOf(registry).accounts.upsert(ctx, {
    serverId: ids.serverId,
    status: 'active',
    providerUid: marker,
  });
  await repositoriesOf(registry).accounts.putSecret(
    ctx,
    ids.serverId,
    ids.field,
    `${marker}-oauth`,
  );
  await repositoriesOf(registry).secrets.put(
    ctx,
    { kind: 'connection', id: connection.id },
    ids.field,
    marker,
  );
  await repositoriesOf(registry).threads.activate(ctx, ids.threadId, [ids.serverId, 'docs']);
  const admission = await registry.tasks.admit(ctx, {
    task: `${marker} task`,
    owner: 'proc_seed',
    leaseMs: 60_000,
    maxRunning: 100,
    keepFinished: 100,
  });
  if (!admission.admitted) throw new Error('the seed task was not admitted');
  const taskId = admission.record.id;
  await registry.tasks.appendEvents(ctx, taskId, [
    { seq: 0, event: { type: 'answer', requestId: marker, answer: marker } },
  ]);
  await repositoriesOf(registry).rateLimits.take(ctx, ids.serverId, {
    ratePerSecond: 1,
    burst: 5,
  });
  await repositoriesOf(registry).audit.record(ctx, { action: 'token.added', detail: { marker } });
  // Session ids are the server's random handles, never chosen: one of this seed's own.
  const sessionId = `${marker}-session`;
  await registry.gatewaySessions.admit(ctx, sessionId, { maxPerUser: 1_000, idleMs: 60_000 });
  await registry.gatewaySessions.initialized(ctx, sessionId, {
    protocolVersion: '2025-11-25',
    client: { capabilities: {}, clientInfo: { name: marker } },
  });
  await registry.gatewaySessions.addDescribed(ctx, sessionId, [`${marker}.tool`]);
  await registry.gatewaySessions.setSearchScope(ctx, sessionId, marker);
  return { ...ids, connectionId: connection.id, accountId: account.id, taskId, sessionId };
}

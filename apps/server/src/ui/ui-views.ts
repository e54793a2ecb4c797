import {
  clip,
  toJsonSafe,
  toMcpAgentError,
  type AgentContext,
  type JsonValue,
  type StepEvent,
} from '@mcp-agent/core';
import type { AgentStack } from '@mcp-agent/agent';
import { explainMatch, toDocument, type MatchExplanation } from '@mcp-agent/knowledge';
import { toToolSpec, type ToolFinding } from '@mcp-agent/registry';
import type { TaskRecord } from '@mcp-agent/registry';

// What one view sends of a text a server or a model wrote: enough to read, and says when cut.
const MAX_TEXT = 4_000;
const MAX_OBSERVATION = 8_000;
const WARM_UP_MS = 5_000;

/** A server as the servers view lists it: configuration, readiness and its call figures. */
export interface ServerRow {
  readonly id: string;
  readonly userId?: string;
  readonly scope?: 'app' | 'user';
  readonly transport?: string;
  readonly name?: string | null;
  readonly status: string;
  readonly lastError: string | null;
  readonly toolCount: number | null;
  readonly breaker?: string;
  readonly connected: boolean;
  readonly calls: number;
  readonly errors: number;
  readonly meanLatencyMs: number | null;
  readonly lastLatencyMs: number | null;
  readonly lastUsedAt: number | null;
  readonly flagged: number;
}

/**
 * The tenant's servers: each registered server, with the live state of its pooled connection
 * (connected first, for at most 5 s each, so readiness and last errors are current).
 */
export async function tenantServers(stack: AgentStack, ctx: AgentContext): Promise<ServerRow[]> {
  // Readiness is real only once a server was tried: the first look connects the ones in effect
  // that have no connection yet (a few seconds at most); later looks only read.
  const [servers, availability] = await Promise.all([
    stack.registry.activeServers(ctx, { includeDisabled: true }),
    stack.registry.availability(ctx),
  ]);
  let live = stack.pool.status(ctx);
  const open = new Set(live.map((state) => state.serverId));
  if (availability.active.some((server) => !open.has(server.id))) {
    await stack.pool.warmUp(ctx, { timeoutMs: WARM_UP_MS });
    live = stack.pool.status(ctx);
  }
  const byId = new Map(live.map((state) => [state.serverId, state]));
  return Promise.all(
    servers.map(async (server): Promise<ServerRow> => {
      const state = byId.get(server.id);
      const flagged = await stack.registry.toolFindings(ctx, server.id).catch(() => []);
      return {
        id: server.id,
        scope: server.scope,
        transport: server.transport,
        name: server.name ?? null,
        status: state?.status ?? server.status,
        lastError: state?.lastError ?? server.lastError,
        toolCount: state?.toolCount ?? server.toolCount,
        ...(state === undefined ? {} : { breaker: state.breaker }),
        connected: state !== undefined,
        calls: state?.metrics.calls ?? 0,
        errors: state?.metrics.errors ?? 0,
        meanLatencyMs: round(state?.metrics.meanLatencyMs ?? null),
        lastLatencyMs: round(state?.metrics.lastLatencyMs ?? null),
        lastUsedAt: state?.metrics.lastUsedAt ?? null,
        flagged: new Set(flagged.map((f) => f.tool)).size,
      };
    }),
  );
}

/** Every open connection of every tenant: the operator's view of the pool. */
export function allConnections(stack: AgentStack): ServerRow[] {
  return stack.pool
    .statusOfAll()
    .map((state) => ({
      id: state.serverId,
      userId: state.userId,
      status: state.status,
      lastError: state.lastError,
      toolCount: state.toolCount,
      breaker: state.breaker,
      connected: true,
      calls: state.metrics.calls,
      errors: state.metrics.errors,
      meanLatencyMs: round(state.metrics.meanLatencyMs),
      lastLatencyMs: round(state.metrics.lastLatencyMs),
      lastUsedAt: state.metrics.lastUsedAt,
      flagged: 0,
    }))
    .sort((a, b) => (a.userId + a.id < b.userId + b.id ? -1 : 1));
}

/** One tool of a server: its description as served, its deep view and its poisoning flags. */
export interface ToolRow {
  readonly name: string;
  readonly toolId: string;
  readonly description: string;
  readonly descriptionChars: number;
  readonly deepView: JsonValue | null;
  readonly deepViewError: string | null;
  readonly findings: readonly { readonly kind: string; readonly detail: string }[];
}

/** The tools of one of the tenant's servers. */
export async function serverTools(
  stack: AgentStack,
  ctx: AgentContext,
  serverId: string,
): Promise<ToolRow[]> {
  const [catalog, findings] = await Promise.all([
    stack.registry.storedTools(ctx, serverId),
    stack.registry.toolFindings(ctx, serverId),
  ]);
  const ids = catalog.map((tool) => `${serverId}.${tool.name}`);
  // Deep views in batches of the size describe_tools takes.
  const views = new Map<string, JsonValue>();
  const problems = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 10) {
    const { tools, errors } = await stack.knowledge.deepView(ctx, ids.slice(i, i + 10));
    for (const view of tools) views.set(view.tool_id, toJsonSafe(view));
    for (const error of errors) {
      const toolId = String(error.details.toolId ?? '');
      problems.set(toolId, error.message);
    }
  }
  const byTool = new Map<string, ToolFinding[]>();
  for (const finding of findings)
    byTool.set(finding.tool, [...(byTool.get(finding.tool) ?? []), finding]);
  return catalog.map((tool) => {
    const toolId = `${serverId}.${tool.name}`;
    const raw = tool.raw.description;
    const description = typeof raw === 'string' ? raw : '';
    return {
      name: tool.name,
      toolId,
      description: cut(description, MAX_TEXT),
      descriptionChars: description.length,
      deepView: views.get(toolId) ?? null,
      deepViewError: views.has(toolId)
        ? null
        : (problems.get(toolId) ?? 'not available in this request'),
      findings: (byTool.get(tool.name) ?? []).map(({ kind, detail }) => ({ kind, detail })),
    };
  });
}

/** One search hit with the reasons it ranked. */
export interface SearchRow {
  readonly rank: number;
  readonly toolId: string;
  readonly score: number;
  /** 0–1, follows the rank: the query's coverage by its best tool, scaled by score. */
  readonly relevance: number;
  readonly description: string;
  readonly why: MatchExplanation | null;
}

/** The tenant's search, ranked as the agent sees it, each hit with the fields it matched. */
export async function explainedSearch(
  stack: AgentStack,
  ctx: AgentContext,
  query: string,
  limit: number,
): Promise<SearchRow[]> {
  const hits = await stack.knowledge.search(ctx, query, { limit });
  const serverIds = [...new Set(hits.map((hit) => hit.tool_id.slice(0, hit.tool_id.indexOf('.'))))];
  const catalogs = await stack.registry.storedToolsOf(ctx, serverIds);
  return hits.map((hit, index) => {
    const serverId = hit.tool_id.slice(0, hit.tool_id.indexOf('.'));
    const name = hit.tool_id.slice(serverId.length + 1);
    const tool = catalogs.get(serverId)?.find((t) => t.name === name);
    return {
      rank: index + 1,
      toolId: hit.tool_id,
      score: Math.round(hit.score * 1000) / 1000,
      relevance: hit.relevance,
      description: hit.description,
      why:
        tool === undefined ? null : explainMatch(query, toDocument(toToolSpec(serverId, tool.raw))),
    };
  });
}

/** A task as the task list shows it. */
export interface TaskRow {
  readonly id: string;
  readonly userId?: string;
  readonly task: string;
  readonly status: string;
  readonly createdAt: number;
  readonly durationMs: number | null;
  readonly steps: number | null;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The row of a task; the operator also sees whose it is. */
export function taskRow(record: TaskRecord, operator: boolean): TaskRow {
  const result = record.result;
  return {
    id: record.id,
    ...(operator ? { userId: record.userId } : {}),
    task: cut(record.task, 200),
    status: record.status,
    createdAt: Date.parse(record.createdAt),
    durationMs: result?.durationMs ?? null,
    steps: result?.steps.length ?? null,
    inputTokens: result?.usage.inputTokens ?? 0,
    outputTokens: result?.usage.outputTokens ?? 0,
  };
}

/**
 * A step event as the timeline shows it: an observation or arguments past 8,000 characters of
 * JSON are cut, and say so (`truncated`) and where the whole one is (`GET /v1/tasks/:id`).
 */
export function timelineEvent(event: StepEvent): JsonValue {
  const copy = { ...event } as Record<string, unknown>;
  for (const field of ['observation', 'arguments'] as const) {
    if (!(field in copy)) continue;
    const text = JSON.stringify(copy[field]) ?? 'null';
    if (text.length > MAX_OBSERVATION) {
      copy[field] = {
        truncated: true,
        preview: text.slice(0, MAX_OBSERVATION),
        chars: text.length,
        whole: 'GET /v1/tasks/:id returns the whole task result with every step',
      };
    }
  }
  return toJsonSafe(copy);
}

/** The end of a task for the timeline: status, answer, usage, error; steps are in the events. */
export function taskEnd(record: TaskRecord): JsonValue {
  const result = record.result;
  if (result === undefined) return { status: record.status };
  return toJsonSafe({
    status: result.status,
    answer: result.answer === null ? null : cut(result.answer, MAX_OBSERVATION),
    durationMs: result.durationMs,
    usage: result.usage,
    toolsUsed: result.toolsUsed,
    requestId: result.requestId,
    ...(result.error === undefined
      ? {}
      : { error: { code: result.error.code, message: cut(result.error.message, MAX_TEXT) } }),
  });
}

/** The message of anything thrown, for a view's error line. */
export function problem(thrown: unknown): string {
  return toMcpAgentError(thrown).message;
}

function cut(text: string, max: number): string {
  return clip(text, max, `… (cut: ${text.length} characters in all)`);
}

function round(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 10) / 10;
}

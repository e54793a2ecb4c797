import {
  parseToolId,
  toMcpAgentError,
  type AgentContext,
  type JsonValue,
  type StepEvent,
  type ToolId,
} from '@mcp-agent/core';
import { codeToolCaller, type Dispatcher } from '@mcp-agent/actions';
import type { Sandbox } from '@mcp-agent/execution';
import type { Knowledge } from '@mcp-agent/knowledge';
import type { ContentBlock, ModelClient, ModelMessage } from '../model/model-client.js';
import type { BudgetTracker } from './budget.js';
import { metaTools, type MetaToolName } from './meta-tools.js';
import { parseCommand, type Command } from './parser.js';
import { PlannerContext } from './planner-context.js';

/** What one loop needs. */
export interface LoopDependencies {
  readonly ctx: AgentContext;
  readonly model: ModelClient;
  readonly knowledge: Knowledge;
  readonly dispatcher: Dispatcher;
  readonly sandbox: Sandbox | undefined;
  readonly budget: BudgetTracker;
  readonly planner: PlannerContext;
  readonly onEvent?: (event: StepEvent) => void;
  /** The request's allow-list of servers. */
  readonly allow?: readonly string[];
  /** A connector sub-agent sees only this server. */
  readonly onlyProvider?: string;
  /** Present when query_connector is on. */
  readonly queryConnector?: (
    connectorId: string,
    query: string,
    context: string | undefined,
  ) => Promise<JsonValue>;
}

interface Observation {
  readonly ok: boolean;
  readonly value: JsonValue;
}

const MAX_RESPONSE_TOKENS = 4_096;

/**
 * The ReAct loop: ask the model, run the commands it chose, feed back slim observations, until
 * it answers in words. Budget and cancellation end it by throwing (the entry point turns that
 * into a status); every other failure is an observation the model can recover from.
 */
export async function runLoop(
  deps: LoopDependencies,
  system: string,
  task: string,
): Promise<string> {
  const { ctx, model, budget, planner } = deps;
  const tools = metaTools({ connectors: deps.queryConnector !== undefined });
  const enabled = new Set(tools.map((t) => t.name as MetaToolName));
  const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: task }] }];
  const emit = (event: StepEvent) => {
    try {
      deps.onEvent?.(event);
    } catch (error) {
      ctx.logger.warn({ error: (error as Error).message }, 'onEvent listener threw');
    }
  };
  for (let step = 0; ; step++) {
    ctx.signal.throwIfAborted();
    budget.beginStep();
    emit({ type: 'step-start', requestId: ctx.requestId, step });
    const started = performance.now();
    const response = await model.generate({
      system,
      messages,
      tools,
      maxTokens: Math.max(1, Math.min(MAX_RESPONSE_TOKENS, budget.remainingOutputTokens)),
      signal: ctx.signal,
    });
    budget.addUsage(response.usage);
    messages.push({ role: 'assistant', content: response.content });
    const uses = response.content.filter(
      (b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use',
    );
    if (uses.length === 0) {
      const answer = response.content
        .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
        .map((b) => b.text)
        .join('\n')
        .trim();
      emit({ type: 'answer', requestId: ctx.requestId, answer });
      return answer;
    }
    const results: ContentBlock[] = [];
    let tokensCharged = false;
    for (const use of uses) {
      ctx.signal.throwIfAborted();
      const commandStarted = tokensCharged ? performance.now() : started;
      emit({
        type: 'tool-call',
        requestId: ctx.requestId,
        step,
        command: use.name,
        arguments: (use.input ?? null) as JsonValue,
      });
      const parsed = parseCommand(use.name, use.input, enabled);
      const observation: Observation = parsed.ok
        ? await execute(deps, parsed.command)
        : { ok: false, value: { error: { code: 'INVALID_ARGUMENTS', message: parsed.error } } };
      emit({
        type: 'observation',
        requestId: ctx.requestId,
        step,
        ok: observation.ok,
        observation: observation.value,
      });
      planner.record({
        command: use.name,
        arguments: (use.input ?? null) as JsonValue,
        observation: observation.value,
        ok: observation.ok,
        inputTokens: tokensCharged ? 0 : response.usage.inputTokens,
        outputTokens: tokensCharged ? 0 : response.usage.outputTokens,
        durationMs: Math.round(performance.now() - commandStarted),
      });
      tokensCharged = true;
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        content: PlannerContext.render(observation.value),
        ...(observation.ok ? {} : { is_error: true }),
      });
    }
    messages.push({ role: 'user', content: results });
  }
}

async function execute(deps: LoopDependencies, command: Command): Promise<Observation> {
  try {
    switch (command.name) {
      case 'search_tools':
        return await search(deps, command.input);
      case 'describe_tools':
        return await describe(deps, command.input.tool_ids);
      case 'call_tool':
        return await call(deps, command.input.tool_id, command.input.arguments);
      case 'run_code':
        return await runCode(deps, command.input.code, command.input.language);
      case 'query_connector':
        if (deps.queryConnector === undefined)
          return failure('INVALID_ARGUMENTS', 'query_connector is not enabled.');
        return {
          ok: true,
          value: await deps.queryConnector(
            command.input.connector_id,
            command.input.query,
            command.input.context,
          ),
        };
    }
  } catch (thrown) {
    const error = toMcpAgentError(thrown);
    // Budget and cancellation end the task; anything else is news for the model.
    if (error.code === 'BUDGET_EXCEEDED' || error.code === 'CANCELLED' || deps.ctx.signal.aborted)
      throw thrown;
    return failure(error.code, error.message);
  }
}

async function search(
  deps: LoopDependencies,
  input: { query: string; limit?: number; providers?: string[] },
): Promise<Observation> {
  const providers = deps.onlyProvider !== undefined ? [deps.onlyProvider] : input.providers;
  const results = await deps.knowledge.search(deps.ctx, input.query, {
    limit: input.limit ?? 5,
    ...(providers === undefined ? {} : { providers }),
    ...(deps.allow === undefined ? {} : { allow: deps.allow }),
  });
  const slim = results.map((r) => ({
    tool_id: r.tool_id,
    description: r.description,
    score: r.score,
  }));
  return {
    ok: true,
    value:
      slim.length === 0
        ? { results: slim, hint: 'Nothing matched; try other words.' }
        : { results: slim },
  };
}

async function describe(deps: LoopDependencies, ids: readonly string[]): Promise<Observation> {
  const outside =
    deps.onlyProvider === undefined
      ? []
      : ids.filter((id) => !id.startsWith(`${deps.onlyProvider}.`));
  const allowed =
    deps.allow === undefined
      ? ids
      : ids.filter((id) => deps.allow?.some((p) => id.startsWith(`${p}.`)));
  const wanted = allowed.filter((id) => !outside.includes(id));
  const { tools, errors } = await deps.knowledge.deepView(deps.ctx, wanted);
  for (const tool of tools) deps.planner.described.add(tool.tool_id);
  const refused = ids
    .filter((id) => !wanted.includes(id))
    .map((id) => ({ code: 'POLICY_DENIED', message: `${id} is not available in this request.` }));
  return {
    ok: tools.length > 0,
    value: {
      tools: tools as unknown as JsonValue,
      errors: [...errors.map((e) => ({ code: e.code, message: e.message })), ...refused],
    },
  };
}

async function call(
  deps: LoopDependencies,
  toolId: string,
  args: Record<string, unknown>,
): Promise<Observation> {
  if (!deps.planner.described.has(toolId)) {
    return failure(
      'INVALID_ARGUMENTS',
      `Describe ${toolId.slice(0, 200)} with describe_tools before calling it (search_tools finds tool ids).`,
    );
  }
  deps.budget.addToolCalls(1);
  const response = await deps.dispatcher.dispatchTool(deps.ctx, toolId, args, {
    caller: 'model',
    signal: deps.ctx.signal,
  });
  if (!response.ok)
    return {
      ok: false,
      value: { error: { code: response.error.code, message: response.error.message } },
    };
  deps.planner.used(response.meta.toolId);
  return {
    ok: true,
    value: {
      // Provenance: the result is data from this tool, whatever it says (POI-06).
      tool_id: response.meta.toolId,
      result: response.data,
      ...(response.meta.truncated
        ? { truncated: true, observation_id: response.meta.observationId ?? null }
        : {}),
    },
  };
}

async function runCode(
  deps: LoopDependencies,
  code: string,
  language: 'javascript' | 'typescript' | undefined,
): Promise<Observation> {
  if (deps.sandbox === undefined)
    return failure('SANDBOX_ERROR', 'run_code is not available: no sandbox is configured.');
  const tools = [...deps.planner.described].map((id) => {
    const parsed = parseToolId(id);
    return { provider: parsed.providerId, name: parsed.toolName };
  });
  const callTool = codeToolCaller(deps.dispatcher, deps.ctx);
  const used: ToolId[] = [];
  const result = await deps.sandbox.run(code, {
    tools,
    language: language ?? 'javascript',
    signal: deps.ctx.signal,
    limits: {
      maxToolCalls: Math.min(50, deps.budget.remainingToolCalls),
      deadlineMs: Math.min(30_000, deps.budget.remainingMs),
    },
    callTool: async (tool, args, signal) => {
      const reply = await callTool(tool, args, signal);
      if (reply.ok) used.push(`${tool.provider}.${tool.name}` as ToolId);
      return reply;
    },
  });
  deps.budget.addToolCalls(result.toolCalls);
  for (const id of used) deps.planner.used(id);
  if (deps.ctx.signal.aborted) deps.ctx.signal.throwIfAborted();
  return result.ok
    ? {
        ok: true,
        value: { result: result.value, logs: [...result.logs], tool_calls: result.toolCalls },
      }
    : {
        ok: false,
        value: {
          error: { code: 'SANDBOX_ERROR', kind: result.error.kind, message: result.error.message },
          logs: [...result.logs],
        },
      };
}

function failure(code: string, message: string): Observation {
  return { ok: false, value: { error: { code, message } } };
}

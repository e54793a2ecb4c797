import {
  ErrorCode,
  inSpan,
  QuotaExceededError,
  type AgentContext,
  type JsonValue,
  type StepEvent,
} from '@mcp-agent/core';
import { InvalidToolInput } from '../input/invalid-tool-input.js';
import type { ContentBlock, ModelClient, ModelMessage } from '../model/model-client.js';
import type { MetaToolSession } from '../session/meta-tool-session.js';
import { generateTraced } from '../telemetry/model-span.js';
import type { BudgetTracker } from './budget.js';
import type { Trajectory } from './trajectory.js';

/** What one loop needs. */
export interface LoopDependencies {
  readonly ctx: AgentContext;
  readonly model: ModelClient;
  readonly session: MetaToolSession;
  readonly budget: BudgetTracker;
  readonly trajectory: Trajectory;
  readonly onEvent?: (event: StepEvent) => void;
}

const MAX_RESPONSE_TOKENS = 4_096;
/** Progress events of one command at most; later ones are not emitted (its observation follows). */
const MAX_PROGRESS_EVENTS = 100;

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>;

/**
 * The ReAct loop: ask the model, run the meta-tools it chose through the session, feed back the
 * observations, until it answers in words. Budget and cancellation end it by throwing (the
 * agent turns that into a status), and so does a quota, which reaches it as an observation and
 * is decided here alone; every other failure is an observation the model can use.
 */
export async function runLoop(
  deps: LoopDependencies,
  system: string,
  task: string,
): Promise<string> {
  const { ctx, model, budget, session } = deps;
  const messages: ModelMessage[] = [{ role: 'user', content: [{ type: 'text', text: task }] }];
  const emit = (event: StepEvent) => {
    try {
      deps.onEvent?.(event);
    } catch (error) {
      ctx.logger.warn({ error: (error as Error).message }, 'onEvent listener threw');
    }
  };
  // Each step in its own span: the model request and the meta-tools it chose are its children.
  const runStep = async (step: number): Promise<string | undefined> => {
    ctx.signal.throwIfAborted();
    budget.beginStep();
    emit({ type: 'step-start', requestId: ctx.requestId, step, at: ctx.clock.now() });
    const started = performance.now();
    const response = await generateTraced(ctx, model, {
      system,
      messages,
      tools: session.tools,
      maxTokens: Math.max(1, Math.min(MAX_RESPONSE_TOKENS, budget.remainingOutputTokens)),
      signal: ctx.signal,
    });
    budget.addUsage(response.usage);
    messages.push({ role: 'assistant', content: response.content });
    const uses = response.content.filter((b): b is ToolUse => b.type === 'tool_use');
    if (uses.length === 0) {
      const answer = response.content
        .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
        .map((b) => b.text)
        .join('\n')
        .trim();
      emit({
        type: 'answer',
        requestId: ctx.requestId,
        answer,
        inputTokens: response.usage.inputTokens,
        outputTokens: response.usage.outputTokens,
        durationMs: Math.round(performance.now() - started),
      });
      return answer;
    }
    const results: ContentBlock[] = [];
    // The response's tokens are charged to its first command.
    let charged = false;
    for (const use of uses) {
      ctx.signal.throwIfAborted();
      const commandStarted = charged ? performance.now() : started;
      const args =
        use.input instanceof InvalidToolInput
          ? use.input.toJSON()
          : ((use.input ?? null) as JsonValue);
      emit({
        type: 'tool-call',
        requestId: ctx.requestId,
        step,
        command: use.name,
        arguments: args,
      });
      let reported = 0;
      const observation = await session.run(use.name, use.input, {
        ctx,
        // A chatty server must not flood the task's events: the first ones of a command show.
        onProgress: ({ progress, total, message }) => {
          if (++reported > MAX_PROGRESS_EVENTS) return;
          emit({
            type: 'progress',
            requestId: ctx.requestId,
            step,
            command: use.name,
            progress,
            ...(total === undefined ? {} : { total }),
            ...(message === undefined ? {} : { message: message.slice(0, 500) }),
          });
        },
      });
      // The one place a quota ends a task: it came this far as a value (a tool's result, a
      // script's, a server sub-agent's), and its reader here is the task.
      if (observation.error?.code === ErrorCode.QuotaExceeded)
        throw new QuotaExceededError(observation.error.message, {
          details: observation.error.details,
        });
      const spent = {
        inputTokens: charged ? 0 : response.usage.inputTokens,
        outputTokens: charged ? 0 : response.usage.outputTokens,
        durationMs: Math.round(performance.now() - commandStarted),
      };
      emit({
        type: 'observation',
        requestId: ctx.requestId,
        step,
        ok: observation.ok,
        observation: observation.value,
        ...spent,
      });
      deps.trajectory.record({
        command: use.name,
        arguments: args,
        observation: observation.value,
        ok: observation.ok,
        ...spent,
      });
      charged = true;
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        // Written once, by the session: the model reads the JSON the observation carries.
        content: observation.json.text,
        ...(observation.ok ? {} : { is_error: true }),
        ...(observation.images === undefined
          ? {}
          : { images: observation.images.map(({ mimeType, data }) => ({ mimeType, data })) }),
      });
    }
    messages.push({ role: 'user', content: results });
    return undefined;
  };
  for (let step = 0; ; step++) {
    const answer = await inSpan('mcp_agent.step', { attributes: { 'mcp_agent.step': step } }, () =>
      runStep(step),
    );
    if (answer !== undefined) return answer;
  }
}

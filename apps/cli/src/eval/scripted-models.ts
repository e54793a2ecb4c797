// The two models the suite runs without a real one, each on a scripted Anthropic Messages API
// on loopback driven through the real @anthropic-ai/sdk, so their requests, tokens and tool
// uses take the same path as a real model's. The `oracle` plays each task's reference plan in
// the mode under test and must pass every task; the `idle` model answers "Done." at once and
// must fail every task. Their token figures are the endpoint's estimate of the context each
// request carries (see `usageOf`), the same for every mode, so modes compare on equal terms.
import type { ModelClient, ToolMode } from '@mcp-agent/agent';
import type { AnthropicRequestBody, ScriptedMessage, ScriptStep } from '@mcp-agent/agent/testing';
import type { EvalTask, ReferencePlan } from './eval-task.js';
import type { EvalWorld } from './eval-world.js';

/** The scripted models. */
export type ScriptedModelName = 'oracle' | 'idle';

/** A scripted model endpoint and a client of it; `prepare` before each task. */
export interface ScriptedModel {
  readonly client: ModelClient;
  prepare(task: EvalTask, world: EvalWorld, mode: ToolMode): void;
  close(): Promise<void>;
}

type Block = ScriptedMessage['content'][number];

export async function startScriptedModel(name: ScriptedModelName): Promise<ScriptedModel> {
  const [{ startScriptedAnthropicServer }, { createAnthropicModelClient }] = await Promise.all([
    import('@mcp-agent/agent/testing'),
    import('@mcp-agent/agent/anthropic'),
  ]);
  let turns: readonly Block[][] = [];
  let evidence: readonly string[] = [];
  let lastPrefix = '';
  const server = await startScriptedAnthropicServer();
  // Always one step queued: each request queues the next, so a task may take any number.
  const step: ScriptStep = ({ body }) => {
    server.push(step);
    const content =
      name === 'idle' ? [{ type: 'text' as const, text: 'Done.' }] : next(body, turns, evidence);
    const usage = usageOf(body, content, lastPrefix);
    lastPrefix = usage.prefix;
    return { content, usage: usage.tokens };
  };
  server.push(step);
  return {
    client: createAnthropicModelClient({
      apiKey: 'scripted',
      baseURL: server.url,
      model: name,
      maxRetries: 0,
    }),
    prepare(task, world, mode) {
      const plan = task.plan(world);
      turns = name === 'oracle' ? oracleTurns(plan, mode) : [];
      evidence = plan.evidence ?? [];
      lastPrefix = '';
    },
    close: () => server.close(),
  };
}

// The oracle's turn for this request: the plan's next one, unless the last tool result failed or
// a search did not find a tool the plan needs (then it says so, and the checker fails it). A task
// no tool can do is declined after its search whatever the search said: search keeps "no good
// match" for requests no connected tool's text answers at all, and otherwise shows the closest
// tools for the model to judge, as a model reading them would decline.
function next(
  body: AnthropicRequestBody,
  turns: readonly Block[][],
  evidence: readonly string[],
): Block[] {
  const index = body.messages.filter((m) => m.role === 'assistant').length;
  const results = lastResults(body);
  const failed = results.find((r) => r.isError);
  if (failed !== undefined)
    return [{ type: 'text', text: `Oracle stopped: a step failed: ${failed.text.slice(0, 400)}` }];
  const turn = turns[index];
  if (turn === undefined) return [{ type: 'text', text: 'Oracle stopped: the plan has ended.' }];
  // The answer only once the tools' results showed what it rests on.
  if (index === turns.length - 1) {
    const seen = allResults(body);
    const unseen = evidence.filter((value) => !seen.includes(value));
    if (unseen.length > 0)
      return [{ type: 'text', text: `Oracle stopped: no result showed ${unseen.join(', ')}` }];
  }
  const describe = turn.find((b) => b.type === 'tool_use' && b.name === 'describe_tools');
  if (describe?.type === 'tool_use') {
    const searched = results.map((r) => r.text).join('\n');
    const ids = (describe.input as { tool_ids: string[] }).tool_ids;
    const missed = ids.filter((id) => !searched.includes(id.slice(id.indexOf('.') + 1)));
    if (missed.length > 0)
      return [{ type: 'text', text: `Oracle stopped: search did not find ${missed.join(', ')}` }];
  }
  return turn;
}

/** The oracle's turns for a plan in one mode, each a model response. */
export function oracleTurns(plan: ReferencePlan, mode: ToolMode): Block[][] {
  const use = (name: string, input: unknown): Block[] => [{ type: 'tool_use', name, input }];
  const answer: Block[] = [{ type: 'text', text: plan.answer }];
  if (plan.steps.length === 0)
    return mode === 'discovery'
      ? [use('search_tools', { queries: plan.queries }), answer]
      : [answer];
  if (mode === 'all-tools')
    return [...plan.steps.map((s) => use(directName(s.tool), s.args)), answer];
  if (mode === 'code-first') {
    const calls = plan.steps.map((s) => {
      const [server, tool] = split(s.tool);
      return `results.push(await tools[${JSON.stringify(server)}][${JSON.stringify(tool)}](${JSON.stringify(s.args)}));`;
    });
    return [
      use('run_code', { code: ['const results = [];', ...calls, 'return results;'].join('\n') }),
      answer,
    ];
  }
  return [
    use('search_tools', { queries: plan.queries }),
    use('describe_tools', { tool_ids: [...new Set(plan.steps.map((s) => s.tool))] }),
    ...plan.steps.map((s) => use('call_tool', { tool_id: s.tool, arguments: s.args })),
    answer,
  ];
}

// `<server>.<tool>` as the all-tools mode names it (the names here never clash).
function directName(toolId: string): string {
  const [server, tool] = split(toolId);
  return `${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60);
}

function split(toolId: string): [string, string] {
  const dot = toolId.indexOf('.');
  return [toolId.slice(0, dot), toolId.slice(dot + 1)];
}

// Every tool result of the conversation, as one text.
function allResults(body: AnthropicRequestBody): string {
  return body.messages
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) => resultsOf(m.content as ResultBlock[]))
    .map((r) => r.text)
    .join('\n');
}

type ResultBlock = { type: string; content?: unknown; is_error?: boolean };

function lastResults(body: AnthropicRequestBody): { text: string; isError: boolean }[] {
  const last = body.messages.at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
  return resultsOf(last.content as ResultBlock[]);
}

function resultsOf(blocks: readonly ResultBlock[]): { text: string; isError: boolean }[] {
  return blocks
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({
      text: Array.isArray(b.content)
        ? (b.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n')
        : String(b.content ?? ''),
      isError: b.is_error === true,
    }));
}

/**
 * Tokens as the endpoint reports them: a byte count over four (a common estimate for English
 * and JSON) of what the request carries. The system prompt and tools are the prefix a real
 * endpoint caches: read from the cache when the task's previous request had the same prefix.
 */
function usageOf(
  body: AnthropicRequestBody,
  content: readonly Block[],
  lastPrefix: string,
): {
  prefix: string;
  tokens: { input_tokens: number; output_tokens: number; cache_read_input_tokens: number };
} {
  const estimate = (text: string) => Math.ceil(Buffer.byteLength(text) / 4);
  const prefix = JSON.stringify([body.system ?? '', body.tools ?? []]);
  const rest = estimate(JSON.stringify(body.messages));
  const cached = prefix === lastPrefix ? estimate(prefix) : 0;
  return {
    prefix,
    tokens: {
      input_tokens: rest + (cached === 0 ? estimate(prefix) : 0),
      output_tokens: estimate(JSON.stringify(content)),
      cache_read_input_tokens: cached,
    },
  };
}

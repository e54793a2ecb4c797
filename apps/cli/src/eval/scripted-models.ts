// The models the suite runs without a real one, each on a scripted Anthropic Messages API on
// loopback driven through the real @anthropic-ai/sdk, so their requests, tokens and tool uses
// take the same path as a real model's. The `oracle` plays each task's reference plan in the
// mode under test and must pass every task; the `idle` model answers "Done." at once and the
// adversaries (scripted-plays.ts) each do one kind of wrong thing: all of them must fail every
// task they run. Their token figures are the endpoint's estimate of the context each request
// carries (see `usageOf`), the same for every mode, so modes compare on equal terms.
import type { ModelClient, ToolMode } from '@mcp-agent/agent';
import type { AnthropicRequestBody, ScriptStep } from '@mcp-agent/agent/testing';
import { BLIND_REQUESTS } from './blind-requests.js';
import type { EvalTask, ReferencePlan } from './eval-task.js';
import type { EvalWorld } from './eval-world.js';
import {
  adversaryTurns,
  finalReply,
  planTurns,
  type Block,
  type ScriptedModelName,
} from './scripted-plays.js';

export type { ScriptedModelName } from './scripted-plays.js';

/**
 * Which searches the oracle makes, one per plan step: `blind` (default) the short request
 * written blind for that step, `blind-sentence` its full-sentence one, `tool-worded` the plan's
 * own queries (in the tools' words: the suite's first searches, kept to compare).
 */
export type QueryVariant = 'blind' | 'blind-sentence' | 'tool-worded';

/** The query variants, for the command line. */
export const QUERY_VARIANTS: readonly QueryVariant[] = ['blind', 'blind-sentence', 'tool-worded'];

/** A scripted model endpoint and a client of it; `prepare` before each task. */
export interface ScriptedModel {
  readonly client: ModelClient;
  prepare(task: EvalTask, world: EvalWorld, mode: ToolMode): void;
  close(): Promise<void>;
}

/** One plan step's search, for the oracle's check of what it found. */
interface StepSearch {
  readonly tool: string;
  readonly query: string;
}

export async function startScriptedModel(
  name: ScriptedModelName,
  queries: QueryVariant = 'blind',
): Promise<ScriptedModel> {
  const [{ startScriptedAnthropicServer }, { createAnthropicModelClient }] = await Promise.all([
    import('@mcp-agent/agent/testing'),
    import('@mcp-agent/agent/anthropic'),
  ]);
  let script: OracleScript = { turns: [], evidence: [], searches: [] };
  let lastPrefix = '';
  let taskIndex = 0;
  const server = await startScriptedAnthropicServer();
  // Always one step queued: each request queues the next, so a task may take any number.
  const step: ScriptStep = ({ body }) => {
    server.push(step);
    const content =
      name === 'oracle'
        ? oracleNext(body, script)
        : ((script.turns[assistantTurns(body)] ?? [{ type: 'text', text: 'Done.' }]) as Block[]);
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
      lastPrefix = '';
      taskIndex += 1;
      if (name === 'oracle') script = oracleScript(task, plan, mode, queries);
      else if (name === 'idle')
        script = { turns: [[{ type: 'text', text: 'Done.' }]], evidence: [], searches: [] };
      else
        script = {
          turns: adversaryTurns(name, task, world, mode, taskIndex),
          evidence: [],
          searches: [],
        };
    },
    close: () => server.close(),
  };
}

/** The oracle's script for one task: its turns, what its answer rests on, and its searches. */
interface OracleScript {
  turns: Block[][];
  readonly evidence: readonly string[];
  readonly searches: readonly StepSearch[];
  /** The steps a browse turn was sent for, until their results are checked. */
  browsed?: readonly StepSearch[] | undefined;
}

// One search per step: each step's tool must be found by that step's own query.
function oracleScript(
  task: EvalTask,
  plan: ReferencePlan,
  mode: ToolMode,
  variant: QueryVariant,
): OracleScript {
  const blind = BLIND_REQUESTS[task.id] ?? [];
  const queryOf = (i: number): string => {
    if (variant === 'tool-worded') return plan.queries[i] ?? plan.queries.at(-1) ?? task.prompt;
    const request = blind[i];
    if (request === undefined)
      throw new Error(`task ${task.id} has no blind request for step ${i + 1}`);
    return variant === 'blind' ? request.short : request.sentence;
  };
  const searches: StepSearch[] =
    plan.steps.length === 0
      ? [{ tool: '', query: queryOf(0) }]
      : plan.steps.map((s, i) => ({ tool: s.tool, query: queryOf(i) }));
  return {
    turns: planTurns(
      plan,
      mode,
      finalReply(task, plan),
      searches.map((s) => [s.query]),
    ),
    evidence: plan.evidence ?? [],
    searches,
  };
}

function assistantTurns(body: AnthropicRequestBody): number {
  return body.messages.filter((m) => m.role === 'assistant').length;
}

// The oracle's turn for this request: the plan's next one, unless the last tool result failed or
// a step's search did not find its tool (then it browses the step's server when search_tools
// can, and says what was missed when that fails too: the checker fails it). A task no tool can
// do is declined after its search whatever the search said: search keeps "no good match" for
// requests no connected tool's text answers at all, and otherwise shows the closest tools for
// the model to judge, as a model reading them would decline.
function oracleNext(body: AnthropicRequestBody, script: OracleScript): Block[] {
  const index = assistantTurns(body);
  const results = lastResults(body);
  const failed = results.find((r) => r.isError);
  // A search_tools that cannot browse yet (servers without a query) leaves the misses as they are.
  if (failed !== undefined && script.browsed !== undefined) return missedText(script.browsed);
  if (failed !== undefined)
    return [{ type: 'text', text: `Oracle stopped: a step failed: ${failed.text.slice(0, 400)}` }];
  const turn = script.turns[index];
  if (turn === undefined) return [{ type: 'text', text: 'Oracle stopped: the plan has ended.' }];
  // The answer only once the tools' results showed what it rests on.
  if (index === script.turns.length - 1) {
    const seen = allResults(body);
    const unseen = script.evidence.filter((value) => !seen.includes(value));
    if (unseen.length > 0)
      return [{ type: 'text', text: `Oracle stopped: no result showed ${unseen.join(', ')}` }];
  }
  const previous = script.turns[index - 1];
  const searched = previous?.filter((b) => b.type === 'tool_use' && b.name === 'search_tools');
  if (searched === undefined || searched.length === 0 || script.searches[0]?.tool === '')
    return turn;
  // After a browse, the steps it was for; otherwise every step, each by its own search.
  const browsed = script.browsed;
  script.browsed = undefined;
  const missed =
    browsed === undefined
      ? script.searches.filter((search, i) => !found(results[i]?.text ?? '', search.tool))
      : browsed.filter((search) => !results.some((r) => found(r.text, search.tool)));
  if (missed.length === 0) return turn;
  if (browsed === undefined && canBrowse(body)) {
    const servers = [...new Set(missed.map((m) => m.tool.slice(0, m.tool.indexOf('.'))))];
    const browse: Block[] = [{ type: 'tool_use', name: 'search_tools', input: { servers } }];
    script.turns.splice(index, 0, browse);
    script.browsed = missed;
    return browse;
  }
  return missedText(missed);
}

function missedText(missed: readonly StepSearch[]): Block[] {
  return [
    {
      type: 'text',
      text: `Oracle stopped: search did not find ${missed
        .map((m) => `${m.tool} for ${JSON.stringify(m.query)}`)
        .join('; ')}`,
    },
  ];
}

// A tool id is in a search's result when its tool name is (results name each tool once).
function found(text: string, toolId: string): boolean {
  return text.includes(toolId.slice(toolId.indexOf('.') + 1));
}

// Whether search_tools takes a list of servers to browse (one server's tools, no query).
function canBrowse(body: AnthropicRequestBody): boolean {
  const search = (body.tools ?? []).find((t) => t.name === 'search_tools') as
    { input_schema?: { properties?: Record<string, unknown> } } | undefined;
  return search?.input_schema?.properties?.servers !== undefined;
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

import type { Usage } from '@mcp-agent/core';
import type {
  ContentBlock,
  ModelClient,
  ModelRequest,
  ModelResponse,
} from '../model/model-client.js';

/** One scripted turn: a response, an error to throw, or a function of the request giving one. */
export type MockTurn =
  ModelResponse | Error | ((request: ModelRequest, index: number) => ModelResponse | Error);

const NO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

/**
 * A `ModelClient` that plays a script in memory and records every request: the double for unit
 * tests of the loop, with no HTTP server, SDK or MCP server behind it. A request past the end of
 * the script throws, naming how many turns were played.
 */
export class MockModelClient implements ModelClient {
  readonly specificationVersion = 'v1' as const;
  readonly modelId: string;
  /** Every request, with its messages copied as they were when sent. */
  readonly requests: ModelRequest[] = [];
  readonly #turns: MockTurn[];

  constructor(turns: readonly MockTurn[] = [], options: { modelId?: string } = {}) {
    this.#turns = [...turns];
    this.modelId = options.modelId ?? 'mock';
  }

  /** Appends turns to the script. */
  push(...turns: MockTurn[]): void {
    this.#turns.push(...turns);
  }

  /** Turns not yet played. */
  get remaining(): number {
    return this.#turns.length;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const index = this.requests.length;
    this.requests.push({ ...request, messages: structuredClone([...request.messages]) });
    const turn = this.#turns.shift();
    if (turn === undefined)
      throw new Error(`MockModelClient: the script ended after ${index} turns.`);
    const answer = typeof turn === 'function' ? turn(request, index) : turn;
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

/** A turn that answers in words. */
export function mockText(text: string, usage: Partial<Usage> = {}): ModelResponse {
  return {
    content: [{ type: 'text', text }],
    stopReason: 'end_turn',
    usage: { ...NO_USAGE, ...usage },
  };
}

/** A turn that uses one or more meta-tools: `[name, input]` pairs. */
export function mockToolUse(
  uses: readonly (readonly [name: string, input: unknown])[],
  usage: Partial<Usage> = {},
): ModelResponse {
  const content: ContentBlock[] = uses.map(([name, input], i) => ({
    type: 'tool_use',
    id: `toolu_mock_${i}_${Math.random().toString(36).slice(2, 10)}`,
    name,
    input,
  }));
  return { content, stopReason: 'tool_use', usage: { ...NO_USAGE, ...usage } };
}

import { BudgetExceededError, type Budget, type Clock, type Usage } from '@mcp-agent/core';

/** Which limit of the budget was reached. */
export type BudgetLimit = keyof Budget;

/** Tracks one task's use of its budget; every limit is hard. */
export class BudgetTracker {
  readonly #budget: Budget;
  readonly #clock: Clock;
  readonly #started: number;
  #steps = 0;
  #toolCalls = 0;
  #usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

  constructor(budget: Budget, clock: Clock) {
    this.#budget = budget;
    this.#clock = clock;
    this.#started = clock.now();
  }

  get usage(): Usage {
    return this.#usage;
  }

  get toolCalls(): number {
    return this.#toolCalls;
  }

  /** Tool calls still allowed. */
  get remainingToolCalls(): number {
    return Math.max(0, this.#budget.maxToolCalls - this.#toolCalls);
  }

  /** Output tokens still allowed (the next request's max_tokens is capped by it). */
  get remainingOutputTokens(): number {
    return Math.max(0, this.#budget.maxOutputTokens - this.#usage.outputTokens);
  }

  /** Milliseconds left before the wall-time limit. */
  get remainingMs(): number {
    return Math.max(0, this.#budget.maxWallTimeMs - (this.#clock.now() - this.#started));
  }

  /** Called before each model request: counts the step and checks every limit. */
  beginStep(): void {
    this.#check();
    if (this.#steps >= this.#budget.maxSteps) this.#exceeded('maxSteps', this.#steps);
    this.#steps += 1;
  }

  /** Counts tool calls (from call_tool or code); throws when past the limit. */
  addToolCalls(count = 1): void {
    if (this.#toolCalls + count > this.#budget.maxToolCalls)
      this.#exceeded('maxToolCalls', this.#toolCalls + count);
    this.#toolCalls += count;
  }

  /** Adds a model response's usage; throws when a token limit is passed. */
  addUsage(usage: Usage): void {
    this.#usage = {
      inputTokens: this.#usage.inputTokens + usage.inputTokens,
      outputTokens: this.#usage.outputTokens + usage.outputTokens,
      cacheReadTokens: this.#usage.cacheReadTokens + usage.cacheReadTokens,
      cacheWriteTokens: this.#usage.cacheWriteTokens + usage.cacheWriteTokens,
    };
    this.#check();
  }

  #check(): void {
    const input =
      this.#usage.inputTokens + this.#usage.cacheReadTokens + this.#usage.cacheWriteTokens;
    if (input > this.#budget.maxInputTokens) this.#exceeded('maxInputTokens', input);
    if (this.#usage.outputTokens > this.#budget.maxOutputTokens)
      this.#exceeded('maxOutputTokens', this.#usage.outputTokens);
    const elapsed = this.#clock.now() - this.#started;
    if (elapsed > this.#budget.maxWallTimeMs) this.#exceeded('maxWallTimeMs', elapsed);
  }

  #exceeded(limit: BudgetLimit, used: number): never {
    throw new BudgetExceededError(
      `The task reached its budget: ${limit} is ${this.#budget[limit]} (used ${used}).`,
      {
        details: { limit, max: this.#budget[limit], used },
      },
    );
  }
}

import type { JsonValue, TaskStep, ToolId } from '@mcp-agent/core';

/** The trajectory of one task: what the model did, what it saw, what it cost. */
export class PlannerContext {
  readonly steps: TaskStep[] = [];
  /** Tools whose deep view was loaded in this task: the only ones that may be called. */
  readonly described = new Set<string>();
  readonly #toolsUsed = new Set<ToolId>();

  /** Records one command and its (slim) observation. */
  record(step: Omit<TaskStep, 'index'>): TaskStep {
    const recorded = { ...step, index: this.steps.length };
    this.steps.push(recorded);
    return recorded;
  }

  /** Notes a tool that was called successfully. */
  used(toolId: ToolId): void {
    this.#toolsUsed.add(toolId);
  }

  get toolsUsed(): ToolId[] {
    return [...this.#toolsUsed];
  }

  /** The observation as the model will read it: compact JSON. */
  static render(observation: JsonValue): string {
    return JSON.stringify(observation);
  }
}

import type { TaskStep } from '@mcp-agent/core';

/** The trajectory of one task: what the model did, what it saw, what it cost. */
export class Trajectory {
  readonly steps: TaskStep[] = [];

  /** Records one command and its (slim) observation. */
  record(step: Omit<TaskStep, 'index'>): TaskStep {
    const recorded = { ...step, index: this.steps.length };
    this.steps.push(recorded);
    return recorded;
  }
}

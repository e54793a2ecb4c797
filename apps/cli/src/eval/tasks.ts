// The task suite: every task, in the order it runs.
import type { EvalTask } from './eval-task.js';
import { DATABASE_AND_GIT_TASKS } from './tasks-database-git.js';
import { MEMORY_AND_FILES_TASKS } from './tasks-memory-files.js';
import { MIXED_TASKS } from './tasks-multi.js';

export const EVAL_TASKS: readonly EvalTask[] = [
  ...MEMORY_AND_FILES_TASKS,
  ...DATABASE_AND_GIT_TASKS,
  ...MIXED_TASKS,
];

// The task suite: every task, in the order it runs.
import type { EvalTask } from './eval-task.js';
import { DATABASE_AND_GIT_TASKS } from './tasks-database-git.js';
import { FILES_TASKS } from './tasks-files.js';
import { MEMORY_TASKS } from './tasks-memory.js';
import { MULTI_SERVER_TASKS } from './tasks-multi.js';
import { OTHER_SERVER_TASKS } from './tasks-other-servers.js';

export const EVAL_TASKS: readonly EvalTask[] = [
  ...MEMORY_TASKS,
  ...FILES_TASKS,
  ...DATABASE_AND_GIT_TASKS,
  ...OTHER_SERVER_TASKS,
  ...MULTI_SERVER_TASKS,
];

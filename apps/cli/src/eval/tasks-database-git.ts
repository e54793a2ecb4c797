// Tasks over one server each: the shop's database and the user's repository, in their own words.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { changeOf, gitOut, rows, withArgs, withStep, type EvalTask } from './eval-task.js';
import { AUTHOR, COMMITS, ORDERS } from './eval-world.js';

// Tools that show the repository's history.
const HISTORY = ['git.git_log', 'git.git_show', 'git.git_reflog', 'git.git_blame'];

export const DATABASE_AND_GIT_TASKS: readonly EvalTask[] = [
  {
    id: 'sqlite-count-orders',
    prompt: 'How many orders are there in the shop database?',
    kind: 'question',
    servers: ['sqlite'],
    checks: `ANSWER is ${ORDERS.length}`,
    plan: () => ({
      queries: ['run a SQL query'],
      steps: [{ tool: 'sqlite.execute_sql', args: { sql: 'SELECT COUNT(*) AS n FROM orders' } }],
      answer: `There are ${ORDERS.length} orders.`,
      evidence: [String(ORDERS.length)],
    }),
    question: {
      answer: { oneOf: [String(ORDERS.length), `${ORDERS.length} orders`] },
      sources: ['sqlite.execute_sql'],
      seen: [String(ORDERS.length)],
    },
    wrongArgs: withArgs(0, () => ({
      sql: "SELECT COUNT(*) AS n FROM orders WHERE status <> 'cancelled'",
    })),
  },
  {
    id: 'sqlite-add-person',
    prompt: 'Add Margaret, an engineer, to the people in the shop database.',
    kind: 'action',
    servers: ['sqlite'],
    checks: 'people gains one row Margaret / engineer',
    plan: () => ({
      queries: ['run a SQL statement'],
      steps: [
        {
          tool: 'sqlite.execute_sql',
          args: { sql: "INSERT INTO people (name, role) VALUES ('Margaret', 'engineer')" },
        },
      ],
      answer: 'Margaret is added.',
    }),
    check: ({ world }) => {
      const found = rows(world, "SELECT role FROM people WHERE name = 'Margaret'");
      if (found.length !== 1 || !/engineer/i.test(String(found[0]?.role)))
        return `Margaret rows: ${JSON.stringify(found)}`;
      return rows(world, 'SELECT id FROM people').length === 4 ? undefined : 'people lost rows';
    },
    changes: ({ key, before }) => before === undefined && key.startsWith('row:people:'),
    wrongArgs: withArgs(0, () => ({
      sql: "INSERT INTO people (name, role) VALUES ('Margret', 'engineer')",
    })),
  },
  {
    id: 'sqlite-promote',
    prompt: "Grace has been promoted: set her role to 'rear admiral' in the database.",
    kind: 'action',
    servers: ['sqlite'],
    checks: "Grace's role is 'rear admiral'; nobody else changed",
    plan: () => ({
      queries: ['update rows with SQL'],
      steps: [
        {
          tool: 'sqlite.execute_sql',
          args: { sql: "UPDATE people SET role = 'rear admiral' WHERE name = 'Grace'" },
        },
      ],
      answer: "Grace's role is now rear admiral.",
    }),
    check: ({ world }) => {
      const roles = rows(world, 'SELECT name, role FROM people ORDER BY id')
        .map((r) => `${String(r.name)}:${String(r.role)}`)
        .join(',');
      return roles === 'Ada:programmer,Grace:rear admiral,Alan:mathematician'
        ? undefined
        : `people are ${roles}`;
    },
    changes: changeOf('row:people:2'),
    wrongArgs: withArgs(0, () => ({
      sql: "UPDATE people SET role = 'rear admiral' WHERE id = 3",
    })),
  },
  {
    id: 'sqlite-drop-cancelled',
    prompt: 'Delete the cancelled orders from the shop database.',
    kind: 'action',
    servers: ['sqlite'],
    checks: 'no cancelled order left; every other order kept',
    plan: () => ({
      queries: ['delete rows with SQL'],
      steps: [
        {
          tool: 'sqlite.execute_sql',
          args: { sql: "DELETE FROM orders WHERE status = 'cancelled'" },
        },
      ],
      answer: 'The cancelled orders are deleted.',
    }),
    check: ({ world }) => {
      const left = rows(world, 'SELECT status, COUNT(*) AS n FROM orders GROUP BY status');
      const count = (status: string) => Number(left.find((r) => r.status === status)?.n ?? 0);
      const kept = ORDERS.filter((o) => o.status !== 'cancelled').length;
      return count('cancelled') === 0 && count('paid') + count('pending') === kept
        ? undefined
        : `orders by status: ${JSON.stringify(left)}`;
    },
    changes: ({ key, before, after }) =>
      key.startsWith('row:orders:') &&
      after === undefined &&
      (JSON.parse(before ?? '{}') as { status?: string }).status === 'cancelled',
    wrongArgs: withArgs(0, () => ({
      sql: "DELETE FROM orders WHERE status = 'cancelled' AND id > 1",
    })),
  },
  {
    id: 'sqlite-tables',
    prompt: 'What tables are in the shop database?',
    kind: 'question',
    servers: ['sqlite'],
    checks: 'ANSWER lists people and orders, in any order',
    plan: () => ({
      queries: ['list database tables'],
      steps: [{ tool: 'sqlite.search_objects', args: { object_type: 'table' } }],
      answer: 'The tables are people and orders.',
      evidence: ['people', 'orders'],
    }),
    question: {
      answer: { items: [['people'], ['orders']] },
      sources: ['sqlite.search_objects', 'sqlite.execute_sql'],
      seen: ['orders'],
    },
    wrongArgs: withArgs(0, () => ({ pattern: 'people' })),
  },
  {
    id: 'git-latest-commit',
    prompt: 'What was the message of the most recent commit in my repository?',
    kind: 'question',
    servers: ['git'],
    checks: `ANSWER is "${COMMITS[2]}"`,
    plan: (world) => ({
      queries: ['show the commit history'],
      steps: [{ tool: 'git.git_log', args: { path: world.repo, maxCount: 1 } }],
      answer: `The latest commit is "${COMMITS[2]}".`,
      evidence: [COMMITS[2]],
    }),
    question: { answer: { oneOf: [COMMITS[2]] }, sources: HISTORY, seen: [COMMITS[2]] },
    wrongArgs: withArgs(0, () => ({ skip: 1 })),
  },
  {
    id: 'git-author',
    prompt: 'Who made the commits in my repository?',
    kind: 'question',
    servers: ['git'],
    checks: `ANSWER is ${AUTHOR}`,
    plan: (world) => ({
      queries: ['show the commit history'],
      steps: [{ tool: 'git.git_log', args: { path: world.repo } }],
      answer: `All commits are by ${AUTHOR}.`,
      evidence: [AUTHOR],
    }),
    question: { answer: { oneOf: [AUTHOR] }, sources: HISTORY, seen: [AUTHOR] },
    wrongArgs: withStep(0, (world) => ({ tool: 'git.git_status', args: { path: world.repo } })),
  },
  {
    id: 'git-branch',
    prompt: 'Start a new branch called feature/login in my repository.',
    kind: 'action',
    servers: ['git'],
    checks: 'branch feature/login exists at the head commit (checked out or not)',
    plan: (world) => ({
      queries: ['create a git branch'],
      steps: [
        {
          tool: 'git.git_branch',
          args: { path: world.repo, mode: 'create', branchName: 'feature/login' },
        },
      ],
      answer: 'Branch feature/login is created.',
    }),
    check: ({ world }) =>
      gitOut(world, 'rev-parse', 'feature/login') !== '' &&
      gitOut(world, 'rev-parse', 'feature/login') === gitOut(world, 'rev-parse', 'main')
        ? undefined
        : 'no branch feature/login at main',
    changes: ({ key, after }) =>
      key === 'git:ref:refs/heads/feature/login' ||
      (key === 'git:HEAD' && after === 'refs/heads/feature/login'),
    wrongArgs: withArgs(0, () => ({ branchName: 'feature-login' })),
  },
  {
    id: 'git-tag-release',
    prompt: 'Tag the current commit of my repository as v1.0.',
    kind: 'action',
    servers: ['git'],
    checks: 'tag v1.0 points at the head commit',
    plan: (world) => ({
      queries: ['tag a commit'],
      steps: [{ tool: 'git.git_tag', args: { path: world.repo, mode: 'create', tagName: 'v1.0' } }],
      answer: 'Tagged v1.0.',
    }),
    check: ({ world }) =>
      gitOut(world, 'rev-parse', 'v1.0^{commit}').trim() ===
        gitOut(world, 'rev-parse', 'HEAD').trim() &&
      gitOut(world, 'rev-parse', 'HEAD').trim() !== ''
        ? undefined
        : 'no tag v1.0 at HEAD',
    changes: changeOf('git:ref:refs/tags/v1.0'),
    wrongArgs: withArgs(0, () => ({ commit: 'HEAD~1' })),
  },
  {
    id: 'git-dirty-file',
    prompt: 'Which file in my repository has changes that are not committed yet?',
    kind: 'question',
    servers: ['git'],
    checks: 'ANSWER is README.md',
    setup: (world) => writeFileSync(join(world.repo, 'README.md'), '# Shop\n\nWork in progress\n'),
    plan: (world) => ({
      queries: ['show the working tree status'],
      steps: [{ tool: 'git.git_status', args: { path: world.repo } }],
      answer: 'README.md has uncommitted changes.',
      evidence: ['README.md'],
    }),
    question: {
      answer: { oneOf: ['README.md'] },
      sources: ['git.git_status', 'git.git_diff'],
      seen: ['README.md'],
    },
    wrongArgs: withStep(0, (world) => ({
      tool: 'git.git_log',
      args: { path: world.repo, maxCount: 1, oneline: true },
    })),
  },
];

// Tasks that need several servers, and requests no connected tool can do (the right outcome is
// to say so, in the declared form, and change nothing).
import { join } from 'node:path';
import {
  changeOf,
  commitSubjects,
  fileText,
  gitOut,
  graph,
  rows,
  withArgs,
  type EvalTask,
} from './eval-task.js';
import { REFUSAL } from './answer-line.js';
import { COMMITS, ORDERS, PEOPLE, TODOS } from './eval-world.js';

const paidTotal = ORDERS.filter((o) => o.status === 'paid').reduce((sum, o) => sum + o.amount, 0);
const allTotal = ORDERS.reduce((sum, o) => sum + o.amount, 0);

export const MULTI_SERVER_TASKS: readonly EvalTask[] = [
  {
    id: 'people-to-file',
    prompt:
      'Write the names of everyone in the people table to people.txt in my files, one per line.',
    kind: 'multi-server',
    servers: ['sqlite', 'files'],
    checks: 'people.txt lists Ada, Grace and Alan, one per line, in any order',
    plan: (world) => ({
      queries: ['run a SQL query', 'write a file'],
      steps: [
        { tool: 'sqlite.execute_sql', args: { sql: 'SELECT name FROM people ORDER BY id' } },
        {
          tool: 'files.write_file',
          args: {
            path: join(world.files, 'people.txt'),
            content: `${PEOPLE.map((p) => p.name).join('\n')}\n`,
          },
        },
      ],
      answer: 'people.txt lists Ada, Grace and Alan.',
    }),
    check: ({ world }) => {
      const lines = (fileText(world, 'people.txt') ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
      // The request names no order: alphabetical is as right as the table's.
      return [...lines].sort().join(',') === 'Ada,Alan,Grace'
        ? undefined
        : `people.txt is ${JSON.stringify(lines)}`;
    },
    changes: changeOf('file:people.txt'),
    wrongArgs: withArgs(1, (world) => ({
      path: join(world.files, 'people.txt'),
      content: 'Ada\nGrace\n',
    })),
  },
  {
    id: 'paid-total-to-file',
    prompt:
      'Work out the total amount of paid orders and save the number in paid-total.txt in my files.',
    kind: 'multi-server',
    servers: ['sqlite', 'files'],
    checks: `paid-total.txt holds ${paidTotal}`,
    plan: (world) => ({
      queries: ['run a SQL query', 'write a file'],
      steps: [
        {
          tool: 'sqlite.execute_sql',
          args: { sql: "SELECT SUM(amount) AS total FROM orders WHERE status = 'paid'" },
        },
        {
          tool: 'files.write_file',
          args: { path: join(world.files, 'paid-total.txt'), content: `${paidTotal}\n` },
        },
      ],
      answer: `The paid orders total ${paidTotal}; saved in paid-total.txt.`,
      evidence: [String(paidTotal)],
    }),
    check: ({ world }) =>
      (fileText(world, 'paid-total.txt') ?? '').replace(/[,\s]/g, '') === String(paidTotal)
        ? undefined
        : `paid-total.txt is ${JSON.stringify(fileText(world, 'paid-total.txt'))}`,
    changes: changeOf('file:paid-total.txt'),
    wrongArgs: withArgs(1, (world) => ({
      path: join(world.files, 'paid-total.txt'),
      content: `${allTotal}\n`,
    })),
  },
  {
    id: 'todos-to-table',
    prompt:
      'Put the items of my todo.md into a new table called todos in the shop database, one row per item with a title column.',
    kind: 'multi-server',
    servers: ['files', 'sqlite'],
    checks: 'new table todos has a title column holding the three items of todo.md, in any order',
    plan: (world) => ({
      queries: ['read a text file', 'run a SQL statement', 'run a SQL statement'],
      steps: [
        { tool: 'files.read_text_file', args: { path: join(world.files, 'todo.md') } },
        {
          tool: 'sqlite.execute_sql',
          args: { sql: 'CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT NOT NULL)' },
        },
        {
          tool: 'sqlite.execute_sql',
          args: {
            sql: `INSERT INTO todos (title) VALUES ${TODOS.map((t) => `('${t}')`).join(', ')}`,
          },
        },
      ],
      answer: 'The three to-dos are in the todos table.',
    }),
    // Only the column asked for is as right as an id beside it; the items in any order.
    check: ({ world }) => {
      const titles = rows(world, 'SELECT title FROM todos').map((r) => String(r.title));
      return [...titles].sort().join('|') === [...TODOS].sort().join('|')
        ? undefined
        : `todos are ${JSON.stringify(titles)}`;
    },
    changes: changeOf('table:todos', 'row:todos:*'),
    wrongArgs: withArgs(2, () => ({
      sql: `INSERT INTO todos (title) VALUES ${TODOS.slice(1)
        .map((t) => `('${t}')`)
        .join(', ')}`,
    })),
  },
  {
    id: 'commit-changelog',
    prompt:
      'Add a CHANGELOG.md to my repository that says "First release", and commit it with the message "Add the changelog".',
    kind: 'multi-server',
    servers: ['files', 'git'],
    checks: 'the newest commit is "Add the changelog" and has CHANGELOG.md with "First release"',
    plan: (world) => ({
      queries: ['write a file', 'stage files in git', 'commit changes'],
      steps: [
        {
          tool: 'files.write_file',
          args: { path: join(world.repo, 'CHANGELOG.md'), content: 'First release\n' },
        },
        { tool: 'git.git_add', args: { path: world.repo, paths: ['CHANGELOG.md'] } },
        { tool: 'git.git_commit', args: { path: world.repo, message: 'Add the changelog' } },
      ],
      answer: 'Committed CHANGELOG.md as "Add the changelog".',
    }),
    check: ({ world }) => {
      const subjects = commitSubjects(world);
      if (subjects[0] !== 'Add the changelog' || subjects.length !== COMMITS.length + 1)
        return `commits are ${JSON.stringify(subjects)}`;
      return /First release/.test(gitOut(world, 'show', 'HEAD:CHANGELOG.md'))
        ? undefined
        : 'HEAD has no CHANGELOG.md saying it';
    },
    changes: changeOf('repo:CHANGELOG.md', 'git:ref:refs/heads/main', 'git:index'),
    wrongArgs: withArgs(2, (world) => ({ path: world.repo, message: 'Add changelog' })),
  },
  {
    id: 'pdf-outlook-to-memory',
    prompt:
      'Read the outlook page of report.pdf and remember it in my knowledge graph as a fact about an entity named "Outlook".',
    kind: 'multi-server',
    servers: ['pdf', 'memory'],
    checks: 'entity Outlook has an observation about hiring three engineers',
    plan: (world) => ({
      queries: ['read text from a PDF', 'remember a new entity'],
      steps: [
        {
          tool: 'pdf.read_pdf',
          args: { sources: [{ path: join(world.files, 'report.pdf') }], include_full_text: true },
        },
        {
          tool: 'memory.create_entities',
          args: {
            entities: [
              { name: 'Outlook', entityType: 'report', observations: ['Hiring three engineers'] },
            ],
          },
        },
      ],
      answer: 'Remembered: the outlook is hiring three engineers.',
      evidence: ['Hiring three engineers'],
    }),
    check: ({ world }) =>
      graph(world).entities.some(
        (e) =>
          e.name === 'Outlook' &&
          e.observations.some((o) => /three engineers|3 engineers/i.test(o)),
      )
        ? undefined
        : 'no entity Outlook about hiring three engineers',
    changes: changeOf('entity:Outlook'),
    wrongArgs: withArgs(1, () => ({
      entities: [
        { name: 'Outlook', entityType: 'report', observations: ['Revenue rose 12 percent'] },
      ],
    })),
  },
  {
    id: 'commits-to-memory',
    prompt:
      'Count the commits in my repository and remember the number as a fact about an entity named "shop repository".',
    kind: 'multi-server',
    servers: ['git', 'memory'],
    checks: 'entity "shop repository" has an observation with the number 3',
    plan: (world) => ({
      queries: ['show the commit history', 'remember a new entity'],
      steps: [
        { tool: 'git.git_log', args: { path: world.repo } },
        {
          tool: 'memory.create_entities',
          args: {
            entities: [
              { name: 'shop repository', entityType: 'project', observations: ['has 3 commits'] },
            ],
          },
        },
      ],
      answer: 'The repository has 3 commits; remembered.',
      evidence: [...COMMITS],
    }),
    check: ({ world }) =>
      graph(world).entities.some(
        (e) =>
          e.name.toLowerCase() === 'shop repository' &&
          e.observations.some((o) => /\b(3|three)\b/i.test(o)),
      )
        ? undefined
        : 'no entity "shop repository" with the number 3',
    changes: ({ key, before }) => before === undefined && /^entity:shop repository$/i.test(key),
    wrongArgs: withArgs(1, () => ({
      entities: [
        { name: 'shop repository', entityType: 'project', observations: ['has 2 commits'] },
      ],
    })),
  },
  {
    id: 'people-to-memory',
    prompt:
      'Make sure everyone in the people table is also in my knowledge graph as a person, with their role as a fact.',
    kind: 'multi-server',
    servers: ['sqlite', 'memory'],
    checks: 'Ada, Grace, Alan are persons, each with a new fact naming their role, old facts kept',
    plan: () => ({
      queries: ['run a SQL query', 'add a fact about someone'],
      steps: [
        { tool: 'sqlite.execute_sql', args: { sql: 'SELECT name, role FROM people' } },
        {
          tool: 'memory.add_observations',
          args: {
            observations: PEOPLE.map((p) => ({ entityName: p.name, contents: [`is a ${p.role}`] })),
          },
        },
      ],
      answer: 'Everyone in people is in the graph with their role.',
    }),
    // A fact the graph had before ("was an admiral") does not count for a role: a skipped row
    // would hide behind it.
    check: ({ world, changes }) => {
      const g = graph(world);
      const missing = PEOPLE.filter((p) => {
        const change = changes.find((c) => c.key === `entity:${p.name}`);
        // Unchanged: no new fact.
        if (change === undefined) return true;
        const old =
          change.before === undefined
            ? []
            : (JSON.parse(change.before) as { observations: string[] }).observations;
        const e = g.entities.find((entity) => entity.name === p.name);
        return (
          e === undefined ||
          e.entityType.toLowerCase() !== 'person' ||
          !old.every((o) => e.observations.includes(o)) ||
          !e.observations.some((o) => !old.includes(o) && o.toLowerCase().includes(p.role))
        );
      });
      return missing.length === 0
        ? undefined
        : `no new role fact for ${missing.map((p) => p.name).join(', ')}`;
    },
    changes: changeOf(...PEOPLE.map((p) => `entity:${p.name}`)),
    wrongArgs: withArgs(1, () => ({
      observations: PEOPLE.filter((p) => p.name !== 'Grace').map((p) => ({
        entityName: p.name,
        contents: [`is a ${p.role}`],
      })),
    })),
  },
  ...unsolvable([
    ['email-boss', "Email my boss that I'll be late tomorrow."],
    ['weather', "What's the weather forecast for Paris tomorrow?"],
    ['book-room', 'Book the big meeting room for Friday at 3pm.'],
    ['slack-post', 'Post "deploy done" in the #ops channel on Slack.'],
    ['translate-audio', 'Transcribe the voicemail my dentist left me this morning.'],
  ]),
];

// A request no connected tool can do: the right answer says so, and the state is untouched.
function unsolvable(requests: readonly (readonly [string, string])[]): EvalTask[] {
  return requests.map(([id, prompt]) => ({
    id: `none-${id}`,
    prompt,
    kind: 'unsolvable' as const,
    servers: [],
    checks: `ANSWER is ${REFUSAL}, and nothing in the world changed`,
    plan: () => ({
      queries: [prompt.replace(/[."]/g, '').slice(0, 60)],
      steps: [],
      answer: "I can't do that: none of the connected tools can.",
    }),
  }));
}

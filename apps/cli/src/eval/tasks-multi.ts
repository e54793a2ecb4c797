// Tasks over the PDF reader, the clock and the test server, tasks that need several servers,
// and requests no connected tool can do (the right outcome is to say so and change nothing).
import { join } from 'node:path';
import {
  all,
  answerHas,
  commitSubjects,
  declines,
  fileText,
  gitOut,
  graph,
  rows,
  type EvalTask,
  type Outcome,
} from './eval-task.js';
import { COMMITS, ORDERS, PEOPLE, TODOS } from './eval-world.js';

const paidTotal = ORDERS.filter((o) => o.status === 'paid').reduce((sum, o) => sum + o.amount, 0);
const spent = new Map<string, number>();
for (const o of ORDERS) spent.set(o.customer, (spent.get(o.customer) ?? 0) + o.amount);
const topCustomer = [...spent].sort((a, b) => b[1] - a[1])[0]![0];

export const MIXED_TASKS: readonly EvalTask[] = [
  {
    id: 'pdf-revenue',
    prompt: 'By how much did revenue rise, according to report.pdf in my files?',
    kind: 'question',
    servers: ['pdf'],
    checks: 'answer says 12 percent',
    plan: (world) => ({
      queries: ['read text from a PDF'],
      steps: [
        { tool: 'pdf.read_pdf', args: { sources: [{ path: join(world.files, 'report.pdf') }] } },
      ],
      answer: 'Revenue rose 12 percent.',
      evidence: ['Revenue rose 12 percent'],
    }),
    check: ({ answer }) => answerHas(answer, '12'),
  },
  {
    id: 'pdf-page-count',
    prompt: 'How many pages long is report.pdf?',
    kind: 'question',
    servers: ['pdf'],
    checks: 'answer says 2',
    plan: (world) => ({
      queries: ['read a PDF document'],
      steps: [
        {
          tool: 'pdf.read_pdf',
          args: {
            sources: [{ path: join(world.files, 'report.pdf') }],
            include_full_text: false,
            include_page_count: true,
          },
        },
      ],
      answer: 'report.pdf has 2 pages.',
    }),
    check: ({ answer }) => (/\b(2|two)\b/i.test(answer) ? undefined : 'the answer does not say 2'),
  },
  {
    id: 'time-convert',
    prompt: 'If it is 09:00 in New York on 10 March 2026, what time is it in Tokyo?',
    kind: 'question',
    servers: ['time'],
    checks: 'answer says 22:00 (or 10 PM)',
    plan: () => ({
      queries: ['convert a time between time zones'],
      steps: [
        {
          tool: 'time.convert_time',
          args: {
            sourceTimezone: 'America/New_York',
            targetTimezone: 'Asia/Tokyo',
            time: '2026-03-10 09:00:00',
          },
        },
      ],
      answer: 'It is 22:00 in Tokyo.',
    }),
    check: ({ answer }) =>
      /\b22:00\b|\b10(:00)?\s*p\.?m\b/i.test(answer) ? undefined : 'the answer does not say 22:00',
  },
  {
    id: 'time-days-in-month',
    prompt: 'How many days does February 2028 have?',
    kind: 'question',
    servers: ['time'],
    checks: 'answer says 29',
    plan: () => ({
      queries: ['days in a month'],
      steps: [{ tool: 'time.days_in_month', args: { date: '2028-02-01' } }],
      answer: 'February 2028 has 29 days.',
      evidence: ['29'],
    }),
    check: ({ answer }) => answerHas(answer, '29'),
  },
  {
    id: 'everything-sum',
    prompt: 'Use the test server to add 1234 and 5678.',
    kind: 'question',
    servers: ['everything'],
    checks: 'answer says 6912',
    plan: () => ({
      queries: ['add two numbers'],
      steps: [{ tool: 'everything.get-sum', args: { a: 1234, b: 5678 } }],
      answer: 'The sum is 6912.',
      evidence: ['6912'],
    }),
    check: ({ answer }) => answerHas(answer.replace(/(\d),(\d{3})/g, '$1$2'), '6912'),
  },
  {
    id: 'sqlite-top-customer',
    prompt: 'Which customer has spent the most across all orders?',
    kind: 'large-result',
    servers: ['sqlite'],
    checks: `answer names ${topCustomer}`,
    plan: () => ({
      queries: ['run a SQL query'],
      steps: [{ tool: 'sqlite.execute_sql', args: { sql: 'SELECT customer, amount FROM orders' } }],
      answer: `${topCustomer} has spent the most.`,
    }),
    check: ({ answer }) => answerHas(answer, topCustomer),
  },
  {
    id: 'people-to-file',
    prompt:
      'Write the names of everyone in the people table to people.txt in my files, one per line.',
    kind: 'multi-server',
    servers: ['sqlite', 'files'],
    checks: 'people.txt lists Ada, Grace and Alan, one per line',
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
      return lines.join(',') === 'Ada,Grace,Alan'
        ? undefined
        : `people.txt is ${JSON.stringify(lines)}`;
    },
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
  },
  {
    id: 'todos-to-table',
    prompt:
      'Put the items of my todo.md into a new table called todos in the shop database, one row per item with a title column.',
    kind: 'multi-server',
    servers: ['files', 'sqlite'],
    checks: 'table todos has the three titles from todo.md',
    plan: (world) => ({
      queries: ['read a text file', 'run a SQL statement'],
      steps: [
        { tool: 'files.read_text_file', args: { path: join(world.files, 'todo.md') } },
        {
          tool: 'sqlite.execute_sql',
          args: {
            sql: `CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT NOT NULL); INSERT INTO todos (title) VALUES ${TODOS.map((t) => `('${t}')`).join(', ')};`,
          },
        },
      ],
      answer: 'The three to-dos are in the todos table.',
    }),
    check: ({ world }) => {
      const titles = rows(world, 'SELECT title FROM todos ORDER BY id').map((r) => String(r.title));
      return titles.join('|') === TODOS.join('|')
        ? undefined
        : `todos are ${JSON.stringify(titles)}`;
    },
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
        { tool: 'pdf.read_pdf', args: { sources: [{ path: join(world.files, 'report.pdf') }] } },
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
  },
  {
    id: 'people-to-memory',
    prompt:
      'Make sure everyone in the people table is also in my knowledge graph as a person, with their role as a fact.',
    kind: 'multi-server',
    servers: ['sqlite', 'memory'],
    checks: 'Ada, Grace, Alan are persons whose observations include their role',
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
    check: ({ world }) => {
      const g = graph(world);
      const missing = PEOPLE.filter(
        (p) =>
          !g.entities.some(
            (e) => e.name === p.name && e.observations.some((o) => o.includes(p.role)),
          ),
      );
      return missing.length === 0
        ? undefined
        : `no role fact for ${missing.map((p) => p.name).join(', ')}`;
    },
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
    checks: 'answer says no tool can do it; nothing written to files, database or graph',
    plan: () => ({
      queries: [prompt.replace(/[."]/g, '').slice(0, 60)],
      steps: [],
      answer: "I can't do that: none of the connected tools can.",
    }),
    check: ({ answer, world }: Outcome) =>
      all(
        declines(answer),
        fileText(world, 'notes.txt') === 'alpha\nbeta\ngamma\n' ? undefined : 'notes.txt changed',
        rows(world, 'SELECT COUNT(*) AS n FROM orders')[0]?.n === ORDERS.length
          ? undefined
          : 'orders changed',
        graph(world).entities.length === 3 ? undefined : 'the graph changed',
      ),
  }));
}

// Tasks over the user's documents, in their own words.
import { join } from 'node:path';
import { changeOf, fileText, withArgs, type EvalTask } from './eval-task.js';
import { SALES } from './eval-world.js';

const salesTotal = SALES.reduce((sum, s) => sum + s.amount, 0);
const byRegion = new Map<string, number>();
for (const s of SALES) byRegion.set(s.region, (byRegion.get(s.region) ?? 0) + s.amount);
const [topRegion, topRegionTotal] = [...byRegion].sort((a, b) => b[1] - a[1])[0]!;
// The file's last rows: shown only by a read of the whole file.
const salesTail = SALES.slice(-3)
  .map((s) => `${s.region},${s.amount}`)
  .join('\n');

// Tools that read a document's text.
const READS = ['files.read_text_file', 'files.read_file', 'files.read_multiple_files'];

export const FILES_TASKS: readonly EvalTask[] = [
  {
    id: 'files-write-list',
    prompt:
      'Make me a shopping list file called shopping.txt with milk, eggs and bread, one per line.',
    kind: 'action',
    servers: ['files'],
    checks: 'shopping.txt holds the three items, one per line, in any order',
    plan: (world) => ({
      queries: ['write a file'],
      steps: [
        {
          tool: 'files.write_file',
          args: { path: join(world.files, 'shopping.txt'), content: 'milk\neggs\nbread\n' },
        },
      ],
      answer: 'shopping.txt is written.',
    }),
    check: ({ world }) => {
      const text = fileText(world, 'shopping.txt');
      if (text === undefined) return 'no shopping.txt';
      const lines = text
        .split('\n')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean);
      return ['milk', 'eggs', 'bread'].every((item) => lines.includes(item)) && lines.length === 3
        ? undefined
        : `shopping.txt holds ${JSON.stringify(lines)}`;
    },
    changes: changeOf('file:shopping.txt'),
    wrongArgs: withArgs(0, () => ({ content: 'milk\neggs\n' })),
  },
  {
    id: 'files-second-line',
    prompt: 'What is on the second line of my notes.txt?',
    kind: 'question',
    servers: ['files'],
    checks: 'ANSWER is beta',
    plan: (world) => ({
      queries: ['read a text file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'notes.txt') } }],
      answer: 'The second line is "beta".',
      evidence: ['beta'],
    }),
    question: { answer: { oneOf: ['beta'] }, sources: READS, seen: ['beta'] },
    wrongArgs: withArgs(0, (world) => ({ path: join(world.files, 'todo.md') })),
  },
  {
    id: 'files-append-line',
    prompt: 'Add a line "delta" at the end of notes.txt.',
    kind: 'action',
    servers: ['files'],
    checks: 'notes.txt is alpha, beta, gamma, delta',
    plan: (world) => ({
      queries: ['read a text file', 'edit a file'],
      steps: [
        { tool: 'files.read_text_file', args: { path: join(world.files, 'notes.txt') } },
        {
          tool: 'files.edit_file',
          args: {
            path: join(world.files, 'notes.txt'),
            edits: [{ oldText: 'gamma\n', newText: 'gamma\ndelta\n' }],
          },
        },
      ],
      answer: 'Added "delta" as the last line.',
    }),
    check: ({ world }) => {
      const lines = (fileText(world, 'notes.txt') ?? '').split('\n').filter(Boolean);
      return lines.join(',') === 'alpha,beta,gamma,delta'
        ? undefined
        : `notes.txt is ${JSON.stringify(lines)}`;
    },
    changes: changeOf('file:notes.txt'),
    wrongArgs: withArgs(1, (world) => ({
      path: join(world.files, 'notes.txt'),
      edits: [{ oldText: 'alpha\n', newText: 'alpha\ndelta\n' }],
    })),
  },
  {
    id: 'files-archive-notes',
    prompt: 'Create a folder named archive and move notes.txt into it.',
    kind: 'action',
    servers: ['files'],
    checks: 'archive/notes.txt has the notes; notes.txt is gone',
    plan: (world) => ({
      queries: ['create a folder', 'move a file'],
      steps: [
        { tool: 'files.create_directory', args: { path: join(world.files, 'archive') } },
        {
          tool: 'files.move_file',
          args: {
            source: join(world.files, 'notes.txt'),
            destination: join(world.files, 'archive', 'notes.txt'),
          },
        },
      ],
      answer: 'notes.txt is now in archive/.',
    }),
    changes: changeOf('dir:archive', 'file:archive/notes.txt', 'file:notes.txt'),
    check: ({ world }) =>
      fileText(world, 'notes.txt') !== undefined
        ? 'notes.txt is still there'
        : fileText(world, 'archive/notes.txt') === 'alpha\nbeta\ngamma\n'
          ? undefined
          : 'archive/notes.txt is missing or differs',
    wrongArgs: withArgs(1, (world) => ({
      destination: join(world.files, 'archive', 'notes.md'),
    })),
  },
  {
    id: 'files-markdown-names',
    prompt: 'Which markdown files do I have, in any folder?',
    kind: 'question',
    servers: ['files'],
    checks: 'ANSWER lists todo.md and docs/guide.md, in any order',
    plan: (world) => ({
      queries: ['find files by name'],
      steps: [{ tool: 'files.search_files', args: { path: world.files, pattern: '**/*.md' } }],
      answer: 'You have todo.md and docs/guide.md.',
      evidence: ['todo.md', 'guide.md'],
    }),
    question: {
      answer: { items: [['todo.md'], ['docs/guide.md', 'guide.md']] },
      sources: [
        'files.search_files',
        'files.directory_tree',
        'files.list_directory',
        'files.list_directory_with_sizes',
      ],
      seen: ['todo.md'],
    },
    wrongArgs: withArgs(0, (world) => ({ path: join(world.files, 'docs') })),
  },
  {
    id: 'files-config-port',
    prompt: 'Which port is the server configured to use in config.json?',
    kind: 'question',
    servers: ['files'],
    checks: 'ANSWER is 8080',
    plan: (world) => ({
      queries: ['read a file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'config.json') } }],
      answer: 'The server uses port 8080.',
      evidence: ['8080'],
    }),
    question: { answer: { oneOf: ['8080'] }, sources: READS, seen: ['8080'] },
    wrongArgs: withArgs(0, (world) => ({ path: join(world.files, 'notes.txt') })),
  },
  {
    id: 'files-change-port',
    prompt: 'Change the server port in config.json from 8080 to 9090.',
    kind: 'action',
    servers: ['files'],
    checks: 'config.json is the old one with server.port the number 9090',
    plan: (world) => ({
      queries: ['edit a file'],
      steps: [
        {
          tool: 'files.edit_file',
          args: {
            path: join(world.files, 'config.json'),
            edits: [{ oldText: '"port": 8080', newText: '"port": 9090' }],
          },
        },
      ],
      answer: 'The port is now 9090.',
    }),
    check: ({ world }) => {
      try {
        const config = JSON.parse(fileText(world, 'config.json') ?? '') as unknown;
        const wanted = { server: { host: 'localhost', port: 9090 }, debug: false };
        return JSON.stringify(config) === JSON.stringify(wanted)
          ? undefined
          : `config.json is ${JSON.stringify(config)}`;
      } catch {
        return 'config.json no longer parses';
      }
    },
    changes: changeOf('file:config.json'),
    wrongArgs: withArgs(0, (world) => ({
      path: join(world.files, 'config.json'),
      edits: [{ oldText: '"port": 8080', newText: '"port": "9090"' }],
    })),
  },
  {
    id: 'files-sales-total',
    prompt: 'What is the total of the amount column in sales.csv?',
    kind: 'large-result',
    servers: ['files'],
    checks: `ANSWER is the exact total (${salesTotal})`,
    plan: (world) => ({
      queries: ['read a text file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'sales.csv') } }],
      answer: `The total is ${salesTotal}.`,
    }),
    question: {
      answer: { oneOf: [String(salesTotal)] },
      sources: READS,
      seen: [String(salesTotal), salesTail],
    },
    wrongArgs: withArgs(0, () => ({ head: 200 })),
  },
  {
    id: 'files-top-region',
    prompt: 'In sales.csv, which region sold the most in total?',
    kind: 'large-result',
    servers: ['files'],
    checks: `ANSWER is ${topRegion}`,
    plan: (world) => ({
      queries: ['read a text file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'sales.csv') } }],
      answer: `The ${topRegion} region sold the most.`,
    }),
    question: {
      answer: { oneOf: [topRegion, `the ${topRegion} region`, `${topRegion} region`] },
      sources: READS,
      // The region's total, the whole file, or the name a script over the file returned.
      seen: [String(topRegionTotal), salesTail, topRegion],
    },
    wrongArgs: withArgs(0, (world) => ({ path: join(world.files, 'notes.txt') })),
  },
];

// Tasks over one server each: the user's memory graph and documents, in their own words.
import { join } from 'node:path';
import { all, answerHas, fileText, graph, type EvalTask } from './eval-task.js';
import { SALES } from './eval-world.js';

const entity = (world: Parameters<typeof graph>[0], name: string) =>
  graph(world).entities.find((e) => e.name.toLowerCase() === name.toLowerCase());

const salesTotal = SALES.reduce((sum, s) => sum + s.amount, 0);
const byRegion = new Map<string, number>();
for (const s of SALES) byRegion.set(s.region, (byRegion.get(s.region) ?? 0) + s.amount);
const topRegion = [...byRegion].sort((a, b) => b[1] - a[1])[0]![0];

export const MEMORY_AND_FILES_TASKS: readonly EvalTask[] = [
  {
    id: 'memory-remember-person',
    prompt: 'Remember that Linus is a person who created Linux.',
    kind: 'action',
    servers: ['memory'],
    checks: 'graph has entity Linus (person) with an observation about Linux',
    plan: () => ({
      queries: ['remember a new person'],
      steps: [
        {
          tool: 'memory.create_entities',
          args: {
            entities: [{ name: 'Linus', entityType: 'person', observations: ['created Linux'] }],
          },
        },
      ],
      answer: 'I remembered that Linus is a person who created Linux.',
    }),
    check: ({ world }) => {
      const linus = entity(world, 'Linus');
      if (linus === undefined) return 'no entity Linus';
      return linus.observations.some((o) => /linux/i.test(o))
        ? undefined
        : 'Linus has no observation about Linux';
    },
  },
  {
    id: 'memory-relate',
    prompt: 'Note in my knowledge graph that Ada mentored Grace.',
    kind: 'action',
    servers: ['memory'],
    checks: 'graph has a relation Ada → Grace whose type mentions mentoring',
    plan: () => ({
      queries: ['create a relation between two entities in the knowledge graph'],
      steps: [
        {
          tool: 'memory.create_relations',
          args: { relations: [{ from: 'Ada', to: 'Grace', relationType: 'mentored' }] },
        },
      ],
      answer: 'Noted: Ada mentored Grace.',
    }),
    check: ({ world }) =>
      graph(world).relations.some(
        (r) => r.from === 'Ada' && r.to === 'Grace' && /mentor/i.test(r.relationType),
      )
        ? undefined
        : 'no relation Ada → Grace about mentoring',
  },
  {
    id: 'memory-add-fact',
    prompt: 'Add to what you know about Grace that she invented the first compiler.',
    kind: 'action',
    servers: ['memory'],
    checks: 'Grace has an observation mentioning the compiler, her old one kept',
    plan: () => ({
      queries: ['add a fact about someone'],
      steps: [
        {
          tool: 'memory.add_observations',
          args: {
            observations: [{ entityName: 'Grace', contents: ['invented the first compiler'] }],
          },
        },
      ],
      answer: 'Added: Grace invented the first compiler.',
    }),
    check: ({ world }) => {
      const grace = entity(world, 'Grace');
      if (grace === undefined) return 'Grace is gone';
      if (!grace.observations.some((o) => /admiral/i.test(o))) return 'her old observation is gone';
      return grace.observations.some((o) => /compiler/i.test(o))
        ? undefined
        : 'no observation about the compiler';
    },
  },
  {
    id: 'memory-forget',
    prompt: 'Forget everything you know about Alan.',
    kind: 'action',
    servers: ['memory'],
    checks: 'no entity Alan, and no relation from or to him; Ada and Grace kept',
    plan: () => ({
      queries: ['delete an entity from the knowledge graph'],
      steps: [{ tool: 'memory.delete_entities', args: { entityNames: ['Alan'] } }],
      answer: 'I forgot Alan.',
    }),
    check: ({ world }) => {
      const g = graph(world);
      if (g.entities.some((e) => e.name === 'Alan')) return 'Alan is still there';
      if (g.relations.some((r) => r.from === 'Alan' || r.to === 'Alan'))
        return 'a relation of Alan is left';
      return ['Ada', 'Grace'].every((n) => g.entities.some((e) => e.name === n))
        ? undefined
        : 'someone else was forgotten too';
    },
  },
  {
    id: 'memory-recall',
    prompt: 'What do you remember about Ada?',
    kind: 'question',
    servers: ['memory'],
    checks: 'answer says she wrote the first program',
    plan: () => ({
      queries: ['look up a person in memory'],
      steps: [{ tool: 'memory.open_nodes', args: { names: ['Ada'] } }],
      answer: 'Ada is a person who wrote the first program.',
      evidence: ['wrote the first program'],
    }),
    check: ({ answer }) => answerHas(answer, 'first program'),
  },
  {
    id: 'memory-who-admired',
    prompt: 'According to my knowledge graph, whom did Alan admire?',
    kind: 'question',
    servers: ['memory'],
    checks: 'answer names Ada',
    plan: () => ({
      queries: ['search the knowledge graph'],
      steps: [{ tool: 'memory.read_graph', args: {} }],
      answer: 'Alan admired Ada.',
      evidence: ['admired'],
    }),
    check: ({ answer }) => answerHas(answer, 'Ada'),
  },
  {
    id: 'files-write-list',
    prompt:
      'Make me a shopping list file called shopping.txt with milk, eggs and bread, one per line.',
    kind: 'action',
    servers: ['files'],
    checks: 'shopping.txt holds the three items, one per line',
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
  },
  {
    id: 'files-second-line',
    prompt: 'What is on the second line of my notes.txt?',
    kind: 'question',
    servers: ['files'],
    checks: 'answer says "beta"',
    plan: (world) => ({
      queries: ['read a text file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'notes.txt') } }],
      answer: 'The second line is "beta".',
      evidence: ['beta'],
    }),
    check: ({ answer }) => answerHas(answer, 'beta'),
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
    check: ({ world }) =>
      fileText(world, 'notes.txt') !== undefined
        ? 'notes.txt is still there'
        : fileText(world, 'archive/notes.txt')?.startsWith('alpha')
          ? undefined
          : 'archive/notes.txt is missing',
  },
  {
    id: 'files-markdown-names',
    prompt: 'Which markdown files do I have, in any folder?',
    kind: 'question',
    servers: ['files'],
    checks: 'answer names todo.md and guide.md',
    plan: (world) => ({
      queries: ['find files by name'],
      steps: [{ tool: 'files.search_files', args: { path: world.files, pattern: '**/*.md' } }],
      answer: 'You have todo.md and docs/guide.md.',
      evidence: ['todo.md', 'guide.md'],
    }),
    check: ({ answer }) => answerHas(answer, 'todo.md', 'guide.md'),
  },
  {
    id: 'files-config-port',
    prompt: 'Which port is the server configured to use in config.json?',
    kind: 'question',
    servers: ['files'],
    checks: 'answer says 8080',
    plan: (world) => ({
      queries: ['read a file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'config.json') } }],
      answer: 'The server uses port 8080.',
      evidence: ['8080'],
    }),
    check: ({ answer }) => answerHas(answer, '8080'),
  },
  {
    id: 'files-change-port',
    prompt: 'Change the server port in config.json from 8080 to 9090.',
    kind: 'action',
    servers: ['files'],
    checks: 'config.json still parses and its server.port is 9090, host kept',
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
        const config = JSON.parse(fileText(world, 'config.json') ?? '') as {
          server?: { port?: unknown; host?: unknown };
        };
        return config.server?.port === 9090 && config.server.host === 'localhost'
          ? undefined
          : `server is ${JSON.stringify(config.server)}`;
      } catch {
        return 'config.json no longer parses';
      }
    },
  },
  {
    id: 'files-sales-total',
    prompt: 'What is the total of the amount column in sales.csv?',
    kind: 'large-result',
    servers: ['files'],
    checks: `answer gives the exact total (${salesTotal})`,
    plan: (world) => ({
      queries: ['read a text file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'sales.csv') } }],
      answer: `The total is ${salesTotal}.`,
    }),
    check: ({ answer }) => answerHas(answer.replace(/(\d),(\d{3})/g, '$1$2'), salesTotal),
  },
  {
    id: 'files-top-region',
    prompt: 'In sales.csv, which region sold the most in total?',
    kind: 'large-result',
    servers: ['files'],
    checks: `answer names ${topRegion}, no other region`,
    plan: (world) => ({
      queries: ['read a text file'],
      steps: [{ tool: 'files.read_text_file', args: { path: join(world.files, 'sales.csv') } }],
      answer: `The ${topRegion} region sold the most.`,
    }),
    check: ({ answer }) =>
      all(
        answerHas(answer, topRegion),
        ['north', 'south', 'east', 'west'].some(
          (r) => r !== topRegion && new RegExp(`\\b${r}\\b`, 'i').test(answer),
        )
          ? 'the answer names other regions too'
          : undefined,
      ),
  },
];

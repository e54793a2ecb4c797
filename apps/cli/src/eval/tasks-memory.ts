// Tasks over the user's memory graph, in their own words.
import { changeOf, graph, withArgs, withStep, type EvalTask, type Outcome } from './eval-task.js';

const entity = (world: Parameters<typeof graph>[0], name: string) =>
  graph(world).entities.find((e) => e.name.toLowerCase() === name.toLowerCase());

// Tools that read the memory graph.
const RECALLS = ['memory.open_nodes', 'memory.search_nodes', 'memory.read_graph'];

// The observations an entity had before the task (the fresh graph's).
const observationsBefore = ({ changes }: Outcome, name: string): string[] => {
  const before = changes.find((c) => c.key === `entity:${name}`)?.before;
  return before === undefined
    ? []
    : (JSON.parse(before) as { observations: string[] }).observations;
};

// A relation type that says its `from` did the mentoring ("mentored", "mentor of"), and one
// that says its `from` was mentored ("was mentored by", "mentee of").
const ACTIVE_MENTORING = /^(is |was )?(mentor|mentors|mentored)( of| to)?$/;
const PASSIVE_MENTORING = /^((is|was) )?(mentored by|mentee of|protege of|protégé of)$/;

export const MEMORY_TASKS: readonly EvalTask[] = [
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
    changes: changeOf('entity:Linus'),
    check: ({ world }) => {
      const linus = entity(world, 'Linus');
      if (linus === undefined) return 'no entity Linus';
      if (linus.entityType.toLowerCase() !== 'person')
        return `Linus is a ${JSON.stringify(linus.entityType)}, not a person`;
      return linus.observations.some((o) => /linux/i.test(o))
        ? undefined
        : 'Linus has no observation about Linux';
    },
    wrongArgs: withArgs(0, () => ({
      entities: [
        { name: 'Linus', entityType: 'operating system', observations: ['created Linux'] },
      ],
    })),
  },
  {
    id: 'memory-relate',
    prompt: 'Note in my knowledge graph that Ada mentored Grace.',
    kind: 'action',
    servers: ['memory'],
    checks:
      'graph gains one relation saying Ada mentored Grace (either direction, worded to match)',
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
    changes: ({ key, before }) =>
      before === undefined && /^relation:(Ada\|.*\|Grace|Grace\|.*\|Ada)$/.test(key),
    check: ({ world }) =>
      graph(world).relations.some((r) => {
        const type = r.relationType.toLowerCase().replace(/[_-]+/g, ' ').trim();
        return (
          (r.from === 'Ada' && r.to === 'Grace' && ACTIVE_MENTORING.test(type)) ||
          (r.from === 'Grace' && r.to === 'Ada' && PASSIVE_MENTORING.test(type))
        );
      })
        ? undefined
        : `no relation says Ada mentored Grace: ${JSON.stringify(graph(world).relations)}`,
    wrongArgs: withArgs(0, () => ({
      relations: [{ from: 'Ada', to: 'Grace', relationType: 'was mentored by' }],
    })),
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
    changes: changeOf('entity:Grace'),
    check: (outcome) => {
      const grace = entity(outcome.world, 'Grace');
      if (grace === undefined) return 'Grace is gone';
      if (!observationsBefore(outcome, 'Grace').every((o) => grace.observations.includes(o)))
        return 'her old observation is gone';
      return grace.observations.some((o) => /compiler/i.test(o))
        ? undefined
        : 'no observation about the compiler';
    },
    wrongArgs: withArgs(0, () => ({
      observations: [{ entityName: 'Ada', contents: ['invented the first compiler'] }],
    })),
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
    changes: ({ key, after }) =>
      after === undefined && (key === 'entity:Alan' || /^relation:(Alan\||.*\|Alan$)/.test(key)),
    check: ({ world }) => {
      const g = graph(world);
      if (g.entities.some((e) => e.name === 'Alan')) return 'Alan is still there';
      return g.relations.some((r) => r.from === 'Alan' || r.to === 'Alan')
        ? 'a relation of Alan is left'
        : undefined;
    },
    wrongArgs: withArgs(0, () => ({ entityNames: ['Alan Turing'] })),
  },
  {
    id: 'memory-recall',
    prompt: 'What do you remember about Ada?',
    kind: 'question',
    servers: ['memory'],
    checks: 'ANSWER is that she wrote the first program',
    plan: () => ({
      queries: ['look up a person in memory'],
      steps: [{ tool: 'memory.open_nodes', args: { names: ['Ada'] } }],
      answer: 'Ada is a person who wrote the first program.',
      evidence: ['wrote the first program'],
    }),
    question: {
      answer: {
        oneOf: [
          'wrote the first program',
          'she wrote the first program',
          'Ada wrote the first program',
          'Ada is a person who wrote the first program',
          'a person who wrote the first program',
        ],
      },
      sources: RECALLS,
      seen: ['wrote the first program'],
    },
    wrongArgs: withArgs(0, () => ({ names: ['Grace'] })),
  },
  {
    id: 'memory-who-admired',
    prompt: 'According to my knowledge graph, whom did Alan admire?',
    kind: 'question',
    servers: ['memory'],
    checks: 'ANSWER is Ada',
    plan: () => ({
      queries: ['search the knowledge graph'],
      steps: [{ tool: 'memory.read_graph', args: {} }],
      answer: 'Alan admired Ada.',
      evidence: ['admired'],
    }),
    // The relation, or the name a script reading the graph returned.
    question: { answer: { oneOf: ['Ada'] }, sources: RECALLS, seen: ['admired', 'Ada'] },
    wrongArgs: withStep(0, () => ({ tool: 'memory.open_nodes', args: { names: ['Grace'] } })),
  },
];

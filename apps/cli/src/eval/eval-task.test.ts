// The checkers on outcomes made by hand: each case the issue found judged wrongly, both ways.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BLIND_REQUESTS } from './blind-requests.js';
import { judge, type EvalTask } from './eval-task.js';
import { createWorld, resetWorld, type EvalWorld } from './eval-world.js';
import { EVAL_TASKS } from './tasks.js';
import { diffWorld, snapshotWorld } from './world-snapshot.js';

const world = createWorld();
afterAll(() => rmSync(world.root, { recursive: true, force: true }));

const task = (id: string): EvalTask => {
  const found = EVAL_TASKS.find((t) => t.id === id);
  if (found === undefined) throw new Error(`no task ${id}`);
  return found;
};

// The verdict on `id` after `act` changed the world, with what the model said and called.
function verdict(
  id: string,
  act: (world: EvalWorld) => void,
  said: { answer?: string; toolsUsed?: string[]; observed?: string } = {},
): string | undefined {
  const t = task(id);
  resetWorld(world);
  t.setup?.(world);
  const fresh = snapshotWorld(world);
  act(world);
  return judge(t, {
    world,
    answer: said.answer ?? 'Done.',
    changes: diffWorld(fresh, snapshotWorld(world)),
    toolsUsed: said.toolsUsed ?? [],
    observed: said.observed ?? '',
  });
}

const sql = (statement: string) => (w: EvalWorld) => {
  const db = new DatabaseSync(w.database);
  db.exec(statement);
  db.close();
};

const graphLines = (w: EvalWorld, ...items: object[]) =>
  writeFileSync(
    w.memory,
    [
      {
        type: 'entity',
        name: 'Ada',
        entityType: 'person',
        observations: ['wrote the first program'],
      },
      { type: 'entity', name: 'Grace', entityType: 'person', observations: ['was an admiral'] },
      {
        type: 'entity',
        name: 'Alan',
        entityType: 'person',
        observations: ['broke the Enigma code'],
      },
      { type: 'relation', from: 'Alan', to: 'Ada', relationType: 'admired' },
      ...items,
    ]
      .map((item) => JSON.stringify(item))
      .join('\n'),
  );

describe('the checkers accept right outcomes the old ones rejected', () => {
  it('people.txt in alphabetical order (the request names no order)', () => {
    expect(
      verdict('people-to-file', (w) =>
        writeFileSync(join(w.files, 'people.txt'), 'Ada\nAlan\nGrace\n'),
      ),
    ).toBeUndefined();
  });

  it('a todos table with only the title column asked for', () => {
    expect(
      verdict(
        'todos-to-table',
        sql(
          "CREATE TABLE todos (title TEXT); INSERT INTO todos VALUES ('Book the dentist'), ('Renew the passport'), ('Call the plumber')",
        ),
      ),
    ).toBeUndefined();
  });

  it('"Grace was mentored by Ada" for "Ada mentored Grace"', () => {
    expect(
      verdict('memory-relate', (w) =>
        graphLines(w, {
          type: 'relation',
          from: 'Grace',
          to: 'Ada',
          relationType: 'was_mentored_by',
        }),
      ),
    ).toBeUndefined();
  });

  it('a decline in any wording, ending with the declared form, nothing changed', () => {
    for (const answer of [
      "I couldn't find a tool for that.\nANSWER: not possible",
      'None of your connected servers can send mail.\nANSWER: Not possible.',
      'I can’t send email here.\n**ANSWER:** not possible',
    ])
      expect(
        verdict('none-email-boss', () => undefined, { answer }),
        answer,
      ).toBeUndefined();
  });
});

describe('the checkers reject wrong outcomes the old ones accepted', () => {
  it('an entity of the wrong type', () => {
    expect(
      verdict('memory-remember-person', (w) =>
        graphLines(w, {
          type: 'entity',
          name: 'Linus',
          entityType: 'operating system',
          observations: ['created Linux'],
        }),
      ),
    ).toMatch(/not a person/);
  });

  it('a relation in the wrong direction ("Ada was mentored by Grace")', () => {
    expect(
      verdict('memory-relate', (w) =>
        graphLines(w, {
          type: 'relation',
          from: 'Ada',
          to: 'Grace',
          relationType: 'was mentored by',
        }),
      ),
    ).toMatch(/no relation says Ada mentored Grace/);
  });

  it('a skipped row hidden by a seed fact (Grace "was an admiral")', () => {
    expect(
      verdict('people-to-memory', (w) =>
        writeFileSync(
          w.memory,
          [
            {
              type: 'entity',
              name: 'Ada',
              entityType: 'person',
              observations: ['wrote the first program', 'is a programmer'],
            },
            {
              type: 'entity',
              name: 'Grace',
              entityType: 'person',
              observations: ['was an admiral'],
            },
            {
              type: 'entity',
              name: 'Alan',
              entityType: 'person',
              observations: ['broke the Enigma code', 'is a mathematician'],
            },
            { type: 'relation', from: 'Alan', to: 'Ada', relationType: 'admired' },
          ]
            .map((item) => JSON.stringify(item))
            .join('\n'),
        ),
      ),
    ).toMatch(/no new role fact for Grace/);
  });

  it('the requested change plus a destructive one (todo.md wiped, orders deleted)', () => {
    expect(
      verdict('files-write-list', (w) => {
        writeFileSync(join(w.files, 'shopping.txt'), 'milk\neggs\nbread\n');
        writeFileSync(join(w.files, 'todo.md'), '');
      }),
    ).toMatch(/never asked for: file:todo.md modified/);
    expect(
      verdict(
        'sqlite-drop-cancelled',
        sql("DELETE FROM orders WHERE status = 'cancelled' OR id = 2"),
      ),
    ).toMatch(/never asked for: row:orders:2 removed/);
  });

  it('a decline of a task no tool can do that wiped todo.md, or that claims success', () => {
    expect(
      verdict('none-weather', (w) => writeFileSync(join(w.files, 'todo.md'), ''), {
        answer: 'ANSWER: not possible',
      }),
    ).toMatch(/todo.md modified/);
    expect(
      verdict('none-weather', () => undefined, {
        answer: "I don't have a weather tool, but it will be sunny.\nANSWER: sunny",
      }),
    ).toMatch(/does not end with ANSWER: not possible/);
  });

  it('a right answer with no tool holding the data called, or with its data never shown', () => {
    const answer = 'ANSWER: 8080';
    expect(verdict('files-config-port', () => undefined, { answer })).toMatch(
      /no tool holding the data was called/,
    );
    expect(
      verdict('files-config-port', () => undefined, {
        answer,
        toolsUsed: ['files.read_text_file'],
        observed: 'alpha\nbeta\ngamma',
      }),
    ).toMatch(/no tool result showed the data/);
    expect(
      verdict('files-config-port', () => undefined, {
        answer,
        toolsUsed: ['files.read_text_file'],
        observed: '{ "server": { "host": "localhost", "port": 8080 } }',
      }),
    ).toBeUndefined();
  });

  it('a task the tools can do, declined', () => {
    expect(
      verdict('files-config-port', () => undefined, {
        answer: 'ANSWER: not possible',
        toolsUsed: ['files.read_text_file'],
        observed: '8080',
      }),
    ).toMatch(/says a task the tools can do is not possible/);
  });
});

describe("the suite's tasks", () => {
  it('give every question an answer and its sources, every action its changes, and each a mutation', () => {
    for (const t of EVAL_TASKS) {
      if (t.kind === 'question' || t.kind === 'large-result')
        expect(t.question, t.id).toBeDefined();
      if (t.kind === 'action' || t.kind === 'multi-server') expect(t.changes, t.id).toBeDefined();
      if (t.kind !== 'unsolvable') expect(t.wrongArgs, t.id).toBeDefined();
    }
  });

  it('give each plan step one blind request and one tool-worded query (one of each for a task no tool can do)', () => {
    for (const t of EVAL_TASKS) {
      const plan = t.plan(world);
      const searches = Math.max(1, plan.steps.length);
      expect(BLIND_REQUESTS[t.id]?.length, t.id).toBe(searches);
      expect(plan.queries.length, t.id).toBe(searches);
      // No tool names in the blind requests: they were written without reading the tools.
      for (const request of BLIND_REQUESTS[t.id] ?? [])
        expect(`${request.short} ${request.sentence}`, t.id).not.toMatch(/[a-z]+_[a-z]+/);
    }
    expect(Object.keys(BLIND_REQUESTS).sort()).toEqual(EVAL_TASKS.map((t) => t.id).sort());
  });
});

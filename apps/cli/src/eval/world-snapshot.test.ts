import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorld, git, resetWorld } from './eval-world.js';
import { describeChange, diffWorld, snapshotWorld } from './world-snapshot.js';

const world = createWorld();
afterAll(() => rmSync(world.root, { recursive: true, force: true }));

describe("the world's snapshot", () => {
  it('reads every part without changing one: two snapshots of a fresh world are equal', () => {
    resetWorld(world);
    const first = snapshotWorld(world);
    expect(diffWorld(first, snapshotWorld(world))).toEqual([]);
    // Each kind of state is in it: files, folders, rows, schema, graph, refs, index, tree.
    for (const key of [
      'file:todo.md',
      'dir:docs',
      'row:orders:600',
      'table:people',
      'entity:Ada',
      'relation:Alan|admired|Ada',
      'git:ref:refs/heads/main',
      'git:HEAD',
      'git:index',
      'repo:README.md',
    ])
      expect(first.has(key), key).toBe(true);
  });

  it('shows each destructive change the issue found unnoticed: a wiped todo.md, deleted orders, a deleted person, a hard reset', () => {
    resetWorld(world);
    const fresh = snapshotWorld(world);
    writeFileSync(join(world.files, 'todo.md'), '');
    const db = new DatabaseSync(world.database);
    db.exec('DELETE FROM orders WHERE id <= 10');
    db.close();
    writeFileSync(
      world.memory,
      `${JSON.stringify({ type: 'entity', name: 'Grace', entityType: 'person', observations: ['was an admiral'] })}\n`,
    );
    git(world, 'reset', '--quiet', '--hard', 'HEAD~1');
    const changes = diffWorld(fresh, snapshotWorld(world)).map(describeChange);
    expect(changes).toContain('file:todo.md modified');
    expect(changes.filter((c) => c.startsWith('row:orders:'))).toHaveLength(10);
    expect(changes).toContain('row:orders:7 removed');
    expect(changes).toEqual(
      expect.arrayContaining([
        'entity:Ada removed',
        'entity:Alan removed',
        'relation:Alan|admired|Ada removed',
        'git:ref:refs/heads/main modified',
        'repo:README.md modified',
      ]),
    );
    // Nothing else: Grace, the other files and the people table are as they were.
    expect(changes.some((c) => c.startsWith('entity:Grace') || c.startsWith('row:people'))).toBe(
      false,
    );
  });

  it('compares the graph by content, not by the order or form the server wrote it in', () => {
    resetWorld(world);
    const fresh = snapshotWorld(world);
    const lines = [
      { type: 'relation', from: 'Alan', to: 'Ada', relationType: 'admired' },
      {
        type: 'entity',
        name: 'Alan',
        entityType: 'person',
        observations: ['broke the Enigma code'],
      },
      { type: 'entity', name: 'Grace', entityType: 'person', observations: ['was an admiral'] },
      {
        type: 'entity',
        name: 'Ada',
        entityType: 'person',
        observations: ['wrote the first program'],
      },
    ];
    writeFileSync(world.memory, lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(diffWorld(fresh, snapshotWorld(world))).toEqual([]);
  });
});

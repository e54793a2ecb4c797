// The whole world as one flat map, so that a task's outcome can be compared with the state it
// started from part by part: every file and folder of the documents, every table's schema and
// row, every entity and relation of the memory graph, and the repository's refs, HEAD, index and
// working tree. A change the request never asked for (a wiped todo.md, ten deleted orders, a
// hard reset) shows up as one more key that differs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { git, type EvalWorld } from './eval-world.js';

/** Part of the world (`file:notes.txt`, `row:people:2`, `git:ref:refs/heads/main`) → its value. */
export type WorldSnapshot = ReadonlyMap<string, string>;

/** One part that differs: absent before (added), absent after (removed), or both (modified). */
export interface WorldChange {
  readonly key: string;
  readonly before?: string;
  readonly after?: string;
}

/** Every part of the world, read without changing any. */
export function snapshotWorld(world: EvalWorld): WorldSnapshot {
  const parts = new Map<string, string>();
  walk(world.files, world.files, 'file', 'dir', parts, () => false);
  walk(world.repo, world.repo, 'repo', 'repo-dir', parts, (rel) => rel === '.git');
  snapshotRepo(world, parts);
  snapshotDatabase(world.database, parts);
  snapshotGraph(world.memory, parts);
  return parts;
}

/** The parts that differ between two snapshots, in key order. */
export function diffWorld(before: WorldSnapshot, after: WorldSnapshot): WorldChange[] {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: WorldChange[] = [];
  for (const key of keys) {
    const was = before.get(key);
    const now = after.get(key);
    if (was === now) continue;
    changes.push({
      key,
      ...(was === undefined ? {} : { before: was }),
      ...(now === undefined ? {} : { after: now }),
    });
  }
  return changes;
}

/** A change in a few words: `notes.txt modified`, `row:orders:3 removed`. */
export function describeChange(change: WorldChange): string {
  const what =
    change.before === undefined ? 'added' : change.after === undefined ? 'removed' : 'modified';
  return `${change.key} ${what}`;
}

function walk(
  root: string,
  dir: string,
  filePrefix: string,
  dirPrefix: string,
  parts: Map<string, string>,
  skip: (rel: string) => boolean,
): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    const rel = relative(root, full).split('\\').join('/');
    if (skip(rel)) continue;
    if (statSync(full).isDirectory()) {
      parts.set(`${dirPrefix}:${rel}`, '');
      walk(root, full, filePrefix, dirPrefix, parts, skip);
    } else {
      parts.set(`${filePrefix}:${rel}`, readFileSync(full, 'utf8'));
    }
  }
}

// The refs name the commits (a hash covers the whole history behind it), the index what is
// staged, HEAD which branch is checked out.
function snapshotRepo(world: EvalWorld, parts: Map<string, string>): void {
  const refs = git(world, 'for-each-ref', '--format=%(refname) %(objectname)').trim();
  for (const line of refs.split('\n').filter(Boolean)) {
    const [name, hash] = line.split(' ');
    parts.set(`git:ref:${name}`, hash ?? '');
  }
  let head: string;
  try {
    head = git(world, 'symbolic-ref', '-q', 'HEAD').trim();
  } catch {
    head = git(world, 'rev-parse', 'HEAD').trim();
  }
  parts.set('git:HEAD', head);
  parts.set('git:index', git(world, 'ls-files', '--stage'));
}

function snapshotDatabase(file: string, parts: Map<string, string>): void {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'view', 'index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string; sql: string | null }[];
    for (const { name, sql } of tables) {
      parts.set(`table:${name}`, sql ?? '');
      if (!/^\s*create\s+table/i.test(sql ?? '')) continue;
      const quoted = `"${name.replace(/"/g, '""')}"`;
      // rowid names a row across the change (a table WITHOUT ROWID has none: then its values).
      let rows: Record<string, unknown>[];
      try {
        rows = db.prepare(`SELECT rowid AS __rowid, * FROM ${quoted}`).all();
      } catch {
        rows = db.prepare(`SELECT * FROM ${quoted}`).all();
      }
      for (const row of rows) {
        const { __rowid: rowid, ...values } = row;
        const value = JSON.stringify(values);
        parts.set(`row:${name}:${rowid === undefined ? value : String(rowid)}`, value);
      }
    }
  } finally {
    db.close();
  }
}

// Keys by name: the server may rewrite its file in any order; observations compare as a set.
function snapshotGraph(file: string, parts: Map<string, string>): void {
  const lines = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
    : [];
  for (const line of lines) {
    const item = JSON.parse(line) as Record<string, unknown>;
    if (item.type === 'entity')
      parts.set(
        `entity:${String(item.name)}`,
        JSON.stringify({
          entityType: item.entityType,
          observations: [...((item.observations as string[] | undefined) ?? [])].sort(),
        }),
      );
    else if (item.type === 'relation')
      parts.set(
        `relation:${String(item.from)}|${String(item.relationType)}|${String(item.to)}`,
        '',
      );
  }
}

// The offline state the task suite works on: files, a git repository, a SQLite database and a
// memory graph in one folder. `resetWorld` rebuilds all of it in place before every task, so
// each task starts from the same state while its servers stay running (the folders and the
// database file keep their identity: the servers hold them open).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { minimalPdf } from './minimal-pdf.js';

/** Where the suite's state lives. */
export interface EvalWorld {
  readonly root: string;
  /** The user's documents (the filesystem server's folder; the PDF is in it). */
  readonly files: string;
  /** A git repository with three commits. */
  readonly repo: string;
  /** The shop's SQLite database: `people` and `orders`. */
  readonly database: string;
  /** The memory server's graph file. */
  readonly memory: string;
}

/** The people table, and the people of the memory graph. */
export const PEOPLE = [
  { id: 1, name: 'Ada', role: 'programmer' },
  { id: 2, name: 'Grace', role: 'admiral' },
  { id: 3, name: 'Alan', role: 'mathematician' },
] as const;

/** The repository's commit subjects, oldest first, and their author. */
export const COMMITS = ['Add the readme', 'Describe the build', 'Fix a typo'] as const;
export const AUTHOR = 'Rita Levi';

/** The pages of report.pdf. */
export const PDF_PAGES = [
  ['Quarterly report', 'Revenue rose 12 percent'],
  ['Outlook', 'Hiring three engineers'],
] as const;

const CUSTOMERS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Tyrell'];
const REGIONS = ['north', 'south', 'east', 'west'];

/** The 600 orders: large enough that a model should not read them whole. */
export const ORDERS = Array.from({ length: 600 }, (_, i) => ({
  id: i + 1,
  customer: CUSTOMERS[(i * 7 + (i % 5)) % CUSTOMERS.length] as string,
  amount: ((i * 53) % 500) + 5,
  status: i % 10 === 0 ? 'cancelled' : i % 3 === 0 ? 'pending' : 'paid',
}));

/** The 400 rows of sales.csv. */
export const SALES = Array.from({ length: 400 }, (_, i) => ({
  region: REGIONS[(i * 3 + (i % 7)) % REGIONS.length] as string,
  amount: ((i * 37) % 200) + 10,
}));

export const TODOS = ['Renew the passport', 'Call the plumber', 'Book the dentist'] as const;

/** A fresh folder with the state built; remove `root` when done. */
export function createWorld(): EvalWorld {
  const root = mkdtempSync(join(tmpdir(), 'mcp-agent-eval-'));
  const world = {
    root,
    files: join(root, 'files'),
    repo: join(root, 'repo'),
    database: join(root, 'shop.db'),
    memory: join(root, 'memory.jsonl'),
  };
  mkdirSync(world.files);
  mkdirSync(world.repo);
  resetWorld(world);
  return world;
}

/** Rebuilds every part of the state in place. */
export function resetWorld(world: EvalWorld): void {
  resetFiles(world.files);
  resetRepo(world);
  resetDatabase(world.database);
  writeFileSync(world.memory, memoryGraph());
}

function empty(dir: string): void {
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
}

function resetFiles(files: string): void {
  empty(files);
  mkdirSync(join(files, 'docs'));
  writeFileSync(join(files, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  writeFileSync(join(files, 'todo.md'), `# To do\n\n${TODOS.map((t) => `- ${t}`).join('\n')}\n`);
  writeFileSync(join(files, 'docs', 'guide.md'), '# Guide\n\nStart the server with `make run`.\n');
  writeFileSync(
    join(files, 'config.json'),
    `${JSON.stringify({ server: { host: 'localhost', port: 8080 }, debug: false }, null, 2)}\n`,
  );
  writeFileSync(
    join(files, 'sales.csv'),
    `region,amount\n${SALES.map((s) => `${s.region},${s.amount}`).join('\n')}\n`,
  );
  writeFileSync(join(files, 'report.pdf'), minimalPdf(PDF_PAGES.map((page) => [...page])));
}

/** Runs git in the repository as the suite's author; throws with git's own message. */
export function git(world: EvalWorld, ...args: string[]): string {
  const result = spawnSync('git', args, {
    cwd: world.repo,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: world.root,
      GIT_AUTHOR_NAME: AUTHOR,
      GIT_AUTHOR_EMAIL: 'rita@example.com',
      GIT_COMMITTER_NAME: AUTHOR,
      GIT_COMMITTER_EMAIL: 'rita@example.com',
    },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

// The repository is built once, outside the servers' folders, and copied in at each reset:
// the same commits (same hashes) every time, without running git a dozen times per task.
function resetRepo(world: EvalWorld): void {
  const template = join(world.root, '.template-repo');
  if (!existsSync(template)) buildRepo({ ...world, repo: template });
  empty(world.repo);
  cpSync(template, world.repo, { recursive: true });
}

function buildRepo(world: EvalWorld): void {
  mkdirSync(world.repo);
  // No hook samples: fewer files to copy at each reset.
  git(world, 'init', '--quiet', '--template=', '--initial-branch=main');
  // The server commits as the same author.
  git(world, 'config', 'user.name', AUTHOR);
  git(world, 'config', 'user.email', 'rita@example.com');
  git(world, 'config', 'commit.gpgsign', 'false');
  COMMITS.forEach((subject, i) => {
    writeFileSync(
      join(world.repo, 'README.md'),
      `# Shop\n\n${COMMITS.slice(0, i + 1).join('\n')}\n`,
    );
    git(world, 'add', 'README.md');
    git(world, 'commit', '--quiet', '-m', subject);
  });
}

function resetDatabase(file: string): void {
  const db = new DatabaseSync(file);
  try {
    // Rebuilt before every task: no need to wait for the disk.
    db.exec('PRAGMA synchronous = OFF');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    for (const { name } of tables) db.exec(`DROP TABLE "${name.replace(/"/g, '""')}"`);
    db.exec(
      'CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL);' +
        'CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, amount INTEGER NOT NULL, status TEXT NOT NULL);',
    );
    const person = db.prepare('INSERT INTO people (id, name, role) VALUES (?, ?, ?)');
    for (const p of PEOPLE) person.run(p.id, p.name, p.role);
    const order = db.prepare(
      'INSERT INTO orders (id, customer, amount, status) VALUES (?, ?, ?, ?)',
    );
    db.exec('BEGIN');
    for (const o of ORDERS) order.run(o.id, o.customer, o.amount, o.status);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

// The memory server's file format: one JSON object per line.
function memoryGraph(): string {
  const lines = [
    {
      type: 'entity',
      name: 'Ada',
      entityType: 'person',
      observations: ['wrote the first program'],
    },
    { type: 'entity', name: 'Grace', entityType: 'person', observations: ['was an admiral'] },
    { type: 'entity', name: 'Alan', entityType: 'person', observations: ['broke the Enigma code'] },
    { type: 'relation', from: 'Alan', to: 'Ada', relationType: 'admired' },
  ];
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

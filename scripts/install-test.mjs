// The install test: packs every publishable package, installs the tarballs with plain npm into a
// fresh project outside the workspace (no pnpm, no workspace links), and uses them as a new user
// would — the `mcp-agent` binary against a real MCP server from npm, and a TypeScript consumer of
// the library. Prints each package's packed files with sizes and one summary line.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = [
  'packages/core',
  'packages/wire',
  'packages/registry',
  'packages/knowledge',
  'packages/execution',
  'packages/actions',
  'packages/agent',
  'packages/compat',
  // The optional CC-CEDICT data for search, under the dictionary's own licence.
  'packages/cedict-data',
  'apps/server',
  'apps/cli',
];
// A real stdio MCP server from npm, at the version the workspace pins.
// Every package is MIT but the dictionary data, which keeps CC-CEDICT's licence.
const licenceOf = (dir) => (dir === 'packages/cedict-data' ? 'CC-BY-SA-4.0' : 'MIT');
const memoryServer = `@modelcontextprotocol/server-memory@${readJson(join(root, 'apps/cli/package.json')).devDependencies['@modelcontextprotocol/server-memory']}`;
// Nothing that is a test, a fixture or build bookkeeping may be packed (the benchmarks are a
// private package of their own).
const FORBIDDEN =
  /(\.test\.|test-helpers|\/bin\/conformance|fixtures|\.tsbuildinfo|\.map$|^package\/src\/)/;

const CONSUMER = `import { ConfigError, McpAgentError, ToolNotFoundError, createContext } from '@mcp-agent/core';
import { executeTask, closeSharedStack, openAgentStack, type AgentStack } from '@mcp-agent/agent';
import type { MCPTaskResult } from '@mcp-agent/core';

const stack: AgentStack = await openAgentStack({ sandbox: false });
try {
  const ctx = createContext({ userId: 'install-test' });
  const hits = await stack.knowledge.search(ctx, 'read the knowledge graph');
  console.log('search:', hits.map((hit) => hit.tool_id).join(', '));
  const unknown = await stack.knowledge.deepView(ctx, ['memory.no_such_tool']);
  const error = unknown.errors[0];
  if (!(error instanceof McpAgentError) || !ToolNotFoundError.isInstance(error)) throw new Error('expected ToolNotFoundError');
  console.log('deep view of an unknown tool:', error.code);
} finally {
  await stack.close();
}
// No model is configured here: executeTask never throws, and says what to configure.
const result: MCPTaskResult = await executeTask('Read the knowledge graph', 'install-test');
await closeSharedStack();
console.log('executeTask:', result.status, result.error?.code);
if (result.status !== 'failed' || result.error?.code !== ConfigError.code) throw new Error('expected a ConfigError result');
console.log('consumer: ok');
`;

const work = mkdtempSync(join(tmpdir(), 'mcp-agent-install-'));
let passed = 0;
let failed = 0;
const check = (name, ok, detail = '') => {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail === '' ? '' : `: ${detail}`}`);
};

try {
  // 1. Pack: pnpm turns workspace:* into the real versions, as a publish would.
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  for (const dir of packages) {
    const before = new Set(readdirSync(tarballs));
    run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(root, dir) });
    const tarball = readdirSync(tarballs).find((file) => !before.has(file));
    const listing = run('tar', ['-tvzf', join(tarballs, tarball)])
      .trim()
      .split('\n');
    const files = listing.map((line) => {
      const parts = line.trim().split(/\s+/);
      return { size: Number(parts[2]), path: parts.slice(5).join(' ') };
    });
    const total = files.reduce((sum, f) => sum + f.size, 0);
    console.log(`\n${tarball} (${files.length} files, ${(total / 1024).toFixed(1)} KiB unpacked)`);
    for (const f of files) console.log(`  ${String(f.size).padStart(8)}  ${f.path}`);
    const bad = files.filter((f) => FORBIDDEN.test(f.path)).map((f) => f.path);
    check(
      `${dir}: no test, fixture, map or build info is packed`,
      bad.length === 0,
      bad.join(', '),
    );
    const manifest = JSON.parse(
      run('tar', ['-xzOf', join(tarballs, tarball), 'package/package.json']),
    );
    const links = JSON.stringify(manifest).match(/workspace:/g) ?? [];
    check(
      `${dir}: a real version, licence and engines, no workspace links`,
      manifest.version !== '0.0.0' &&
        manifest.license === licenceOf(dir) &&
        manifest.engines?.node !== undefined &&
        links.length === 0 &&
        files.some((f) => f.path === 'package/LICENSE'),
    );
  }

  // 2. Install with plain npm, outside the workspace.
  const app = join(work, 'app');
  mkdirSync(app);
  const dependencies = Object.fromEntries(
    readdirSync(tarballs).map((file) => {
      const manifest = JSON.parse(
        run('tar', ['-xzOf', join(tarballs, file), 'package/package.json']),
      );
      return [manifest.name, `file:${join(tarballs, file)}`];
    }),
  );
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2),
  );
  console.log(
    `\n[install] npm install of ${Object.keys(dependencies).length} tarballs and ${memoryServer}`,
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', memoryServer], {
    cwd: app,
  });
  check('npm installs the tarballs', true);

  // 3. The installed binary, as a user runs it.
  const home = join(work, 'home');
  const env = {
    ...process.env,
    MCP_AGENT_HOME: home,
    MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64'),
    MCP_AGENT_USER: 'install-test',
  };
  const cli = (...args) =>
    spawnSync(join(app, 'node_modules/.bin/mcp-agent'), args, {
      cwd: app,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
  const version = cli('--version');
  check(
    'mcp-agent --version',
    version.status === 0 && /^\d+\.\d+\.\d+/.test(version.stdout.trim()),
    version.stdout.trim() || version.stderr.trim(),
  );
  const memory = join(app, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
  const added = cli(
    'servers',
    'add',
    'memory',
    '--command',
    process.execPath,
    '--arg',
    memory,
    '--env',
    `MEMORY_FILE_PATH=${join(work, 'memory.jsonl')}`,
  );
  check(
    'mcp-agent servers add (a real stdio server from npm)',
    added.status === 0,
    (added.stdout + added.stderr).trim(),
  );
  // Connecting stores the server's catalog, which search reads without starting anything.
  const status = cli('servers', 'status');
  check(
    'mcp-agent servers status: the server is ready',
    status.status === 0 && /memory\s+ready/.test(status.stdout),
    (status.stdout + status.stderr).trim().slice(0, 200),
  );
  const search = cli('tools', 'search', 'read the knowledge graph');
  check(
    'mcp-agent tools search',
    search.status === 0 && search.stdout.includes('memory.read_graph'),
    search.stdout.split('\n')[0] || search.stderr.trim(),
  );
  const call = cli('tools', 'call', 'memory.read_graph', '--args', '{}');
  check(
    'mcp-agent tools call',
    call.status === 0 && /entities/.test(call.stdout),
    (call.stdout + call.stderr).trim().slice(0, 200),
  );

  // 4. A TypeScript consumer of the library, by its public names: typechecked, then run.
  writeFileSync(join(app, 'consumer.ts'), CONSUMER);
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2024',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
        allowImportingTsExtensions: true,
      },
      files: ['consumer.ts'],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', app],
    {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH: join(root, 'node_modules/@types') },
    },
  );
  check(
    'the consumer typechecks against the installed packages',
    tsc.status === 0,
    (tsc.stdout + tsc.stderr).trim().slice(0, 600),
  );
  const consumer = spawnSync(process.execPath, ['consumer.ts'], {
    cwd: app,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  console.log(consumer.stdout.trim().replace(/^/gm, '  consumer> '));
  check(
    'the consumer runs: executeTask, openAgentStack and the error classes',
    consumer.status === 0 && consumer.stdout.includes('consumer: ok'),
    consumer.stderr.trim().slice(0, 600),
  );

  // 5. On an older Node, the binary says in one line which Node it needs.
  const systemNode = findSystemNode();
  if (systemNode !== undefined) {
    const old = spawnSync(
      systemNode.path,
      [join(app, 'node_modules/@mcp-agent/cli/dist/mcp-agent.js'), '--version'],
      { encoding: 'utf8' },
    );
    const lines = old.stderr.trim().split('\n');
    check(
      `on Node ${systemNode.version} the binary refuses in one line`,
      old.status === 1 &&
        lines.length === 1 &&
        /needs Node\.js 24 or newer; this is Node\.js/.test(lines[0]),
      old.stderr.trim(),
    );
  } else {
    console.log(
      "  (no Node older than 24 on this machine: the refusal is covered by core's unit test)",
    );
  }
} catch (error) {
  check('install test', false, error instanceof Error ? error.message : String(error));
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`install-test: ${passed} passed, ${failed} failed`);
// Not process.exit: a pipe it shares with its parent may be non-blocking, and an exit drops what
// is still queued (a CI run once lost every line after the first 13 KB, the summary with them).
// Nothing is left open here, so the process ends as soon as its output is written.
process.exitCode = failed === 0 ? 0 : 1;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}: ${(result.stderr || result.stdout || '').trim().slice(0, 2000)}`,
    );
  return result.stdout;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

// The first node on PATH outside the bootstrapped toolchain, when it is older than 24.
function findSystemNode() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir.includes('.toolchain')) continue;
    try {
      const version = execFileSync(join(dir, 'node'), ['--version'], { encoding: 'utf8' }).trim();
      const major = Number(version.slice(1).split('.')[0]);
      return major < 24 ? { path: join(dir, 'node'), version } : undefined;
    } catch {
      // no node here
    }
  }
  return undefined;
}

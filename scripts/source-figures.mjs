// `node scripts/source-figures.mjs [--json]`: the size of each package's source, for a closing
// note. Source is every .ts under src/ except tests (`*.test.ts`, `*-test-helpers.ts`,
// `contract-tests/`); ./testing doubles count as source, and are also shown apart. The private
// benchmarks/ package is shown on its own line, outside the total.
// Lines are counted as `wc -l` counts them. It also counts the source files over 400 lines and
// the imports that run against the layering eslint.config.js enforces (scripts/layers.mjs), so a
// note can show them without running the linter.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { FOLDER_RULES, LAYERS } from './layers.mjs';

const root = join(import.meta.dirname, '..');
const BENCHMARKS = 'benchmarks';
const members = [
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(group, entry.name)),
  ),
  BENCHMARKS,
];
/** The workspace member a file belongs to (`packages/x`, `apps/x` or `benchmarks`). */
const memberOf = (file) => members.find((member) => file.startsWith(`${member}/`));

function isTest(path) {
  return (
    path.endsWith('.test.ts') ||
    path.endsWith('-test-helpers.ts') ||
    path.split('/').includes('contract-tests')
  );
}

function* tsFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function lineCount(path) {
  const text = readFileSync(path, 'utf8');
  let lines = 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) lines += 1;
  return lines;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The imports of one file that run upward: to a package its layer does not allow, or against a folder rule (registry's store → connections, the server's auth → gateway). */
function upwardImports(file, text) {
  const member = memberOf(file);
  const allowed = LAYERS[member];
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    const workspace = /^@mcp-agent\/([^/]+)/.exec(spec);
    if (workspace !== null && allowed !== undefined) {
      const target = workspace[1];
      if (target !== member.split('/').at(-1) && !allowed.includes(target)) found.push(spec);
    }
    for (const rule of FOLDER_RULES) {
      if (!file.startsWith(rule.folder)) continue;
      const target = spec.startsWith('.')
        ? relative(root, resolve(root, dirname(file), spec))
        : spec;
      if (
        rule.notInto.some((folder) => `${target}/`.startsWith(folder)) ||
        rule.entries.includes(target)
      )
        found.push(spec);
    }
  }
  return found.map((spec) => `${file} → ${spec}`);
}

const packages = [];
const sources = [];
const upward = [];
for (const member of members) {
  const figures = {
    package: member,
    files: 0,
    lines: 0,
    testingLines: 0,
    testFiles: 0,
    testLines: 0,
  };
  for (const path of tsFiles(join(root, member, 'src'))) {
    const file = relative(root, path);
    const lines = lineCount(path);
    if (isTest(file)) {
      figures.testFiles += 1;
      figures.testLines += lines;
      continue;
    }
    figures.files += 1;
    figures.lines += lines;
    upward.push(...upwardImports(file, readFileSync(path, 'utf8')));
    if (/\/src\/testing\//.test(file)) figures.testingLines += lines;
    if (member !== BENCHMARKS) sources.push({ file, lines });
  }
  if (figures.files + figures.testFiles > 0) packages.push(figures);
}
const benchmarks = packages.find((p) => p.package === BENCHMARKS);
packages.splice(packages.indexOf(benchmarks), 1);
packages.sort((a, b) => b.lines - a.lines);
const over400 = sources.filter((s) => s.lines > 400).map((s) => s.file);
const longest = sources
  .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
  .slice(0, 10);
const total = packages.reduce(
  (sum, p) => ({ files: sum.files + p.files, lines: sum.lines + p.lines }),
  {
    files: 0,
    lines: 0,
  },
);

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ packages, total, benchmarks, longest, over400, upward }));
} else {
  const pad = (value, width) => String(value).padStart(width);
  const row = (p) =>
    console.log(
      `${p.package.padEnd(22)}${pad(p.files, 6)}${pad(p.lines, 8)}${pad(p.testingLines, 11)}${pad(p.testFiles, 12)}${pad(p.testLines, 12)}`,
    );
  console.log('package                files   lines  (testing)  test files  test lines');
  for (const p of packages) row(p);
  console.log(`${'total'.padEnd(22)}${pad(total.files, 6)}${pad(total.lines, 8)}`);
  row({ ...benchmarks, package: `${BENCHMARKS} (apart)` });
  console.log('\nThe ten longest source files (non-test):');
  for (const { file, lines } of longest) console.log(`${pad(lines, 6)}  ${file}`);
  console.log(`\nSource files over 400 lines: ${over400.length}`);
  for (const file of over400) console.log(`  ${file}`);
  console.log(`Imports running upward (scripts/layers.mjs): ${upward.length}`);
  for (const line of upward) console.log(`  ${line}`);
}

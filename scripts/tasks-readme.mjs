// The READMEs' task-suite figures rewritten from a run's report.json, never typed by hand:
//   pnpm bench tasks --model oracle --out node_modules/.cache/tasks-oracle
//   node scripts/tasks-readme.mjs [report.json]   (default: that run's report)
// Each README marks its figures with <!-- tasks:<name>:start --> … <!-- tasks:<name>:end -->.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readmeFigures, replaceBlock, taskTable } from '../apps/cli/dist/eval/readme-figures.js';
import { EVAL_TASKS } from '../apps/cli/dist/eval/tasks.js';

const source = process.argv[2] ?? 'node_modules/.cache/tasks-oracle/report.json';
const blocks = {
  ...readmeFigures(JSON.parse(readFileSync(source, 'utf8'))),
  tasks: taskTable(EVAL_TASKS),
};
const files = ['README.md', 'apps/cli/README.md'];
for (const file of files) {
  let text = readFileSync(file, 'utf8');
  for (const [name, content] of Object.entries(blocks))
    if (text.includes(`<!-- tasks:${name}:start -->`)) text = replaceBlock(text, name, content);
  writeFileSync(file, text);
  console.log(`${file}: figures from ${source}`);
}
// Laid out as the repository's formatter lays out Markdown (the check in the test command).
spawnSync('pnpm', ['exec', 'prettier', '--write', '--log-level=warn', ...files], {
  stdio: 'inherit',
});

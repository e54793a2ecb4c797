// The list of test projects: one per package and app, and the benchmarks' own tests.
// vitest.config.ts reads it through `test.projects`, because Vitest 4+ no longer picks up a
// workspace file by itself.
const members = [
  'packages/core',
  'packages/wire',
  'packages/registry',
  'packages/knowledge',
  'packages/execution',
  'packages/actions',
  'packages/agent',
  'packages/compat',
  'apps/cli',
  'apps/server',
  'benchmarks',
];

export default members.map((dir) => ({
  extends: true as const,
  test: {
    name: dir.split('/').at(-1),
    root: dir,
    include: ['src/**/*.test.ts'],
    // Minutes-long cases run in their own suite: bash scripts/dev.sh test:slow.
    exclude: ['**/node_modules/**', '**/dist/**', 'src/**/*.slow.test.ts'],
  },
}));

import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

// The slow suite: every *.slow.test.ts (100k-cycle churn, heap bombs). Run it with
// `bash scripts/dev.sh test:slow`; the default test command leaves these out.
export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({
    test: {
      include: ['packages/*/src/**/*.slow.test.ts'],
      testTimeout: 900_000,
    },
  }),
);

import js from '@eslint/js';
import globals from 'globals';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

import { LAYERS, PACKAGES } from './scripts/layers.mjs';

// Packages talk to each other only through their public entry points.
const ENTRY_POINTS_ONLY = {
  group: ['@mcp-agent/*/src/*', '**/packages/*/src/*'],
  message: 'Import the package entry point instead.',
};

/** `no-restricted-imports` for one package: entry points only, and nothing above it. */
function layerRule(folder, allowed, extra = []) {
  const self = folder.split('/')[1];
  const above = PACKAGES.filter((name) => name !== self && !allowed.includes(name));
  return [
    'error',
    {
      patterns: [
        ENTRY_POINTS_ONLY,
        ...(above.length === 0
          ? []
          : [
              {
                regex: `^@mcp-agent/(${above.join('|')})(/|$)`,
                message: `${folder} may import only ${allowed.length === 0 ? 'no workspace package' : allowed.map((name) => `@mcp-agent/${name}`).join(', ')} (the package order in ARCHITECTURE.md; add the dependency to package.json only if the order allows it).`,
              },
            ]),
        ...extra,
      ],
    },
  ];
}

// Inside registry, the store never reaches the live connections: connections read the store.
const STORE_NOT_CONNECTIONS = {
  regex: '(^|/)(connections|mcp-registry-client)/|^@mcp-agent/registry/connections$',
  message:
    "registry's store/ must not import connections/ (or the MCP Registry client): the edge runs one way, connections → store.",
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/build/**',
      '**/node_modules/**',
      '.toolchain/**',
      'coverage/**',
      'docs/api/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-imports': ['error', { patterns: [ENTRY_POINTS_ONLY] }],
    },
  },
  ...Object.entries(LAYERS).map(([folder, allowed]) => ({
    files: [`${folder}/**/*.{ts,mts,js,mjs}`],
    rules: { 'no-restricted-imports': layerRule(folder, allowed) },
  })),
  {
    files: ['packages/registry/src/store/**/*.{ts,mts,js,mjs}'],
    rules: {
      'no-restricted-imports': layerRule('packages/registry', LAYERS['packages/registry'], [
        STORE_NOT_CONNECTIONS,
      ]),
    },
  },
  // The server's web UI runs in the browser.
  { files: ['apps/server/ui/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  prettier,
);

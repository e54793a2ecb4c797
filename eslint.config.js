import js from '@eslint/js';
import globals from 'globals';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

import { FOLDER_RULES, LAYERS, PACKAGES } from './scripts/layers.mjs';

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

/**
 * The pattern of one folder rule (scripts/layers.mjs): a relative import that names a forbidden
 * folder, or one of the package's subpath entries that leads into it.
 */
function folderPattern({ notInto, entries, message }) {
  const names = notInto.map((folder) => folder.split('/').filter(Boolean).at(-1));
  return {
    regex: [`(^|/)(${names.join('|')})/`, ...entries.map((entry) => `^${entry}$`)].join('|'),
    message,
  };
}

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
  // ESLint keeps only the last setting of a rule that matches a file, so a folder inside another
  // rule's folder carries the outer rules' patterns too, and comes after them.
  ...[...FOLDER_RULES]
    .sort((a, b) => a.folder.length - b.folder.length)
    .map((rule) => {
      const member = rule.folder.split('/').slice(0, 2).join('/');
      const enclosing = FOLDER_RULES.filter((outer) => rule.folder.startsWith(outer.folder));
      return {
        files: [`${rule.folder}**/*.{ts,mts,js,mjs}`],
        rules: {
          'no-restricted-imports': layerRule(member, LAYERS[member], enclosing.map(folderPattern)),
        },
      };
    }),
  // The server's web UI runs in the browser.
  { files: ['apps/server/ui/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  prettier,
);

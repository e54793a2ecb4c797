import js from '@eslint/js';
import globals from 'globals';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

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
      // Packages talk to each other only through their public entry points.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@mcp-agent/*/src/*', '**/packages/*/src/*'],
              message: 'Import the package entry point instead.',
            },
          ],
        },
      ],
    },
  },
  // The server's web UI runs in the browser.
  { files: ['apps/server/ui/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  prettier,
);

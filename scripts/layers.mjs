// The package order, as each package.json declares it: a package imports only the packages
// listed for it (core → registry → knowledge / execution → actions → agent → apps).
// test-support holds fixtures for tests and is open to all but core.
export const LAYERS = {
  'packages/core': [],
  'packages/test-support': [],
  'packages/registry': ['core', 'test-support'],
  'packages/execution': ['core', 'test-support'],
  'packages/knowledge': ['core', 'registry', 'test-support'],
  'packages/actions': ['core', 'registry', 'execution', 'test-support'],
  'packages/agent': ['core', 'registry', 'execution', 'knowledge', 'actions', 'test-support'],
  'packages/compat': ['core', 'registry', 'knowledge', 'agent', 'test-support'],
  'apps/server': ['core', 'registry', 'execution', 'knowledge', 'actions', 'agent', 'test-support'],
  'apps/cli': [
    'core',
    'registry',
    'execution',
    'knowledge',
    'actions',
    'agent',
    'server',
    'test-support',
  ],
};
export const PACKAGES = [
  'core',
  'test-support',
  'registry',
  'execution',
  'knowledge',
  'actions',
  'agent',
  'compat',
  'server',
  'cli',
];

// Inside registry, the store never reaches the live connections: connections read the store.
export const REGISTRY_STORE = 'packages/registry/src/store/';
export const REGISTRY_ABOVE_STORE = [
  'packages/registry/src/connections/',
  'packages/registry/src/mcp-registry-client/',
];

// The package order, as each package.json declares it: a package imports only the packages
// listed for it (core → wire → registry → knowledge / execution → actions → agent → apps).
// test-support holds fixtures for tests and is open to all but core.
export const LAYERS = {
  'packages/core': [],
  'packages/test-support': [],
  // The MCP wire beside the SDK: protocol code only, below everything that speaks MCP.
  'packages/wire': ['core'],
  'packages/registry': ['core', 'wire', 'test-support'],
  'packages/execution': ['core', 'test-support'],
  'packages/knowledge': ['core', 'wire', 'registry', 'test-support'],
  'packages/actions': ['core', 'wire', 'registry', 'execution', 'test-support'],
  'packages/agent': [
    'core',
    'wire',
    'registry',
    'execution',
    'knowledge',
    'actions',
    'test-support',
  ],
  'packages/compat': ['core', 'wire', 'registry', 'knowledge', 'agent', 'test-support'],
  'apps/server': [
    'core',
    'wire',
    'registry',
    'execution',
    'knowledge',
    'actions',
    'agent',
    'test-support',
  ],
  'apps/cli': [
    'core',
    'wire',
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
  'wire',
  'registry',
  'execution',
  'knowledge',
  'actions',
  'agent',
  'compat',
  'server',
  'cli',
];

// Rules between folders of one package: files under `folder` never import from `notInto`
// (relative imports, or the package's own subpath entries in `entries`). Enforced by
// eslint.config.js and counted by scripts/source-figures.mjs.
export const FOLDER_RULES = [
  {
    // Connections read the store; the store never reaches the live connections.
    folder: 'packages/registry/src/store/',
    notInto: ['packages/registry/src/connections/', 'packages/registry/src/mcp-registry-client/'],
    entries: ['@mcp-agent/registry/connections'],
    message:
      "registry's store/ must not import connections/ (or the MCP Registry client): the edge runs one way, connections → store.",
  },
  {
    // Readiness is the vocabulary availability reads (ConnectionState); it never reads availability.
    folder: 'packages/registry/src/store/readiness/',
    notInto: ['packages/registry/src/store/availability/'],
    entries: [],
    message:
      "registry's store/readiness/ must not import store/availability/: availability reads the readiness vocabulary, the edge runs one way.",
  },
  {
    // Sign-in sits below every surface that uses it: the gateway, the API and the UI read auth/.
    folder: 'apps/server/src/auth/',
    notInto: ['apps/server/src/gateway/'],
    entries: [],
    message:
      "the server's auth/ must not import gateway/: sign-in sits below the surfaces, the edge runs one way, gateway → auth.",
  },
];

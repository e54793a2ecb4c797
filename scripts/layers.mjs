// The package order, as each package.json declares it: a package imports only the packages
// listed for it (core → wire → registry → knowledge / execution → actions → agent → apps).
// test-support holds fixtures for tests and is open to all but core. The private benchmarks/
// package may import every package (through its entry points); nothing imports it.
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
  'benchmarks',
];
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
  benchmarks: PACKAGES.filter((name) => name !== 'benchmarks'),
};

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
  // The agent's folders, top to bottom: the agent and tasks/ (durable tasks over it) → planner/
  // (the loop, budget, prompts, tool modes) → session/ (the meta-tool session, shared with the
  // gateway) and model/ (the model clients), side by side → telemetry/ (spans) → input/ (what
  // comes from outside: a task's context, a tool use's arguments that did not parse).
  {
    // The gateway drives the session with no planner and no model: it must not need them.
    folder: 'packages/agent/src/session/',
    notInto: [
      'packages/agent/src/planner/',
      'packages/agent/src/model/',
      'packages/agent/src/tasks/',
      'packages/agent/src/testing/',
    ],
    entries: ['@mcp-agent/agent/testing'],
    message:
      "agent's session/ must not import planner/, model/, tasks/ or the test doubles: the gateway drives the session alone; what both need lives in a leaf below them (input/) or in session/ itself.",
  },
  {
    // A model client knows nothing of the loop or the session it serves. (testing/ is allowed:
    // the scripted endpoints the model tests run against live there.)
    folder: 'packages/agent/src/model/',
    notInto: [
      'packages/agent/src/planner/',
      'packages/agent/src/session/',
      'packages/agent/src/tasks/',
      'packages/agent/src/telemetry/',
    ],
    entries: [],
    message:
      "agent's model/ must not import planner/, session/, tasks/ or telemetry/: the model clients sit below the loop (their tests use the scripted endpoints of testing/).",
  },
  {
    folder: 'packages/agent/src/planner/',
    notInto: ['packages/agent/src/tasks/'],
    entries: [],
    message:
      "agent's planner/ must not import tasks/: durable tasks run the agent, which runs the loop.",
  },
  {
    folder: 'packages/agent/src/telemetry/',
    notInto: [
      'packages/agent/src/planner/',
      'packages/agent/src/session/',
      'packages/agent/src/tasks/',
    ],
    entries: [],
    message:
      "agent's telemetry/ must not import planner/, session/ or tasks/: the spans sit below what they trace.",
  },
  {
    // The leaf every folder may read.
    folder: 'packages/agent/src/input/',
    notInto: [
      'packages/agent/src/planner/',
      'packages/agent/src/session/',
      'packages/agent/src/model/',
      'packages/agent/src/tasks/',
      'packages/agent/src/telemetry/',
      'packages/agent/src/testing/',
    ],
    entries: ['@mcp-agent/agent/testing'],
    message: "agent's input/ is the leaf below every other folder: it imports none of them.",
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

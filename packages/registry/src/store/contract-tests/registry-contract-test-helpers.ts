import { createContext, type ServerConfig } from '@mcp-agent/core';

// The fixtures the registry contract tests share: the app's own servers the registry opens
// with, and a user's servers with secrets in them.

export const alice = createContext({ userId: 'alice' });
export const appEverything: ServerConfig = {
  id: 'everything',
  transport: 'stdio',
  command: 'node',
  args: ['everything.js'],
  env: {},
  enabled: true,
};
export const appDocs: ServerConfig = {
  id: 'docs',
  transport: 'streamable-http',
  url: 'https://docs.example/mcp',
  headers: {},
  enabled: true,
};

export const githubServer = {
  id: 'github',
  transport: 'streamable-http',
  url: 'https://api.example.com/mcp',
  headers: { Authorization: 'Bearer gh-token-value-1' },
};
export const memoryServer = {
  id: 'memory',
  transport: 'stdio',
  command: 'node',
  args: ['memory.js'],
  env: { MEMORY_FILE_PATH: '/tmp/memory.json', API_TOKEN: 'memory-token-value-2' },
};

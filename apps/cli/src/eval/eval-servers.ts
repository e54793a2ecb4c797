// The suite's servers: the real npm MCP servers of the compatibility suite (pinned
// devDependencies of this package), each over the suite's state.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@mcp-agent/core';
import type { EvalServerId } from './eval-task.js';
import type { EvalWorld } from './eval-world.js';

/** One server as `registry.addServer` takes it. */
export interface EvalServerConfig {
  readonly id: EvalServerId;
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

// Resolved from this package's own node_modules: the suite needs its dev install.
function binOf(packageName: string): string {
  const root = fileURLToPath(new URL(`../../node_modules/${packageName}/`, import.meta.url));
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest))
    throw new ConfigError(
      `The task suite needs the MCP server ${packageName}, which is not installed: run it from a checkout of mcp-agent after "pnpm install".`,
    );
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const entry = typeof bin === 'string' ? bin : Object.values(bin)[0];
  if (entry === undefined) throw new ConfigError(`${packageName} has no bin`);
  return join(root, entry);
}

/** Every server of the suite over `world`. */
export function evalServers(world: EvalWorld): EvalServerConfig[] {
  const server = (
    id: EvalServerId,
    packageName: string,
    args: string[] = [],
    env: Record<string, string> = {},
  ): EvalServerConfig => ({
    id,
    transport: 'stdio',
    command: process.execPath,
    args: [binOf(packageName), ...args],
    env,
  });
  return [
    server('memory', '@modelcontextprotocol/server-memory', [], { MEMORY_FILE_PATH: world.memory }),
    server('files', '@modelcontextprotocol/server-filesystem', [world.files, world.repo]),
    server('sqlite', '@bytebase/dbhub', [
      '--transport',
      'stdio',
      '--dsn',
      `sqlite://${world.database}`,
    ]),
    server('git', '@cyanheads/git-mcp-server', [], {
      MCP_TRANSPORT_TYPE: 'stdio',
      MCP_LOG_LEVEL: 'error',
      GIT_BASE_DIR: world.root,
    }),
    server('pdf', '@sylphx/pdf-reader-mcp'),
    server('time', 'time-mcp'),
    server('everything', '@modelcontextprotocol/server-everything', ['stdio']),
  ];
}

#!/usr/bin/env node
// The mcp-agent command. It wires packages together and holds no domain logic; each command
// lives in ./commands.
import { userInfo } from 'node:os';
import {
  createContext,
  createLogger,
  toMcpAgentError,
  type AgentContext,
  type McpAgentError,
} from '@mcp-agent/core';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { auth } from './commands/auth.js';
import { exec } from './commands/exec.js';
import { run } from './commands/run.js';
import { serve } from './commands/serve.js';
import { servers } from './commands/servers.js';
import { tokens } from './commands/tokens.js';
import { tools } from './commands/tools.js';
import { ui } from './commands/ui.js';
import { HELP } from './help.js';
import { invocation, usage, type Invocation } from './invocation.js';

// Exit codes: 0 done, 1 failed, 2 bad usage or input, 3 not found, 4 not ready or unauthorised.
const EXIT: Record<string, number> = {
  INVALID_ARGUMENTS: 2,
  CONFIG_INVALID: 2,
  PROVIDER_NOT_FOUND: 3,
  TOOL_NOT_FOUND: 3,
  NOT_READY: 4,
  UNAUTHORIZED: 4,
};

const cli = invocation(process.argv.slice(2));
const { values, positionals, asJson } = cli;
let stack: AgentStack | undefined;
try {
  const [command, sub, ...rest] = positionals;
  if (command === undefined || values.help === true) {
    process.stdout.write(`${HELP[command ?? ''] ?? HELP['']}\n`);
    process.exit(command === undefined && values.help !== true ? 2 : 0);
  }
  if (!Object.hasOwn(HELP, command)) usage(`unknown command "${command}"`);
  if (command === 'tokens') {
    // The token file only: no registry, no stack.
    tokens(cli, sub, rest);
    process.exit(0);
  }
  const userId = String(values.user ?? process.env.MCP_AGENT_USER ?? safeUser());
  const home = values.home === undefined ? {} : { home: String(values.home) };
  if (command === 'ui') {
    // Its own stack: telemetry and the UI's log buffer come before it.
    await ui(cli, userId, home);
    process.exit(0);
  }
  const needsSandbox = command === 'exec' || command === 'run' || command === 'serve';
  stack = await openAgentStack({
    ...home,
    logger: createLogger({ level: 'error' }),
    ...(needsSandbox ? {} : { sandbox: false }),
  });
  const ctx = createContext({ userId });
  const code = await dispatch(cli, stack, ctx, command, sub, rest);
  if (code === 'serving') await new Promise(() => undefined);
  await stack.close();
  process.exit(Number(process.exitCode ?? 0));
} catch (thrown) {
  const error = toMcpAgentError(thrown);
  if (asJson)
    process.stdout.write(
      `${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`,
    );
  else process.stderr.write(`mcp-agent: ${error.message}${hint(error)}\n`);
  await stack?.close().catch(() => undefined);
  process.exit(EXIT[error.code] ?? 1);
}

async function dispatch(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  command: string,
  sub: string | undefined,
  rest: string[],
): Promise<'done' | 'serving'> {
  switch (command) {
    case 'servers':
      await servers(cli, stack, ctx, sub, rest);
      return 'done';
    case 'auth':
      await auth(cli, stack, ctx, sub);
      return 'done';
    case 'tools':
      await tools(cli, stack, ctx, sub, rest);
      return 'done';
    case 'exec':
      await exec(cli, stack, ctx, sub);
      return 'done';
    case 'run':
      await run(cli, stack, ctx, [sub, ...rest].filter(Boolean).join(' '));
      return 'done';
    case 'serve':
      return serve(cli, stack, ctx);
    default:
      return usage(`unknown command "${command}"`);
  }
}

function hint(error: McpAgentError): string {
  if (error.code === 'NOT_READY') return ' (see "mcp-agent servers status")';
  if (error.code === 'UNAUTHORIZED') return ' (sign in with "mcp-agent auth login <server>")';
  return '';
}

function safeUser(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

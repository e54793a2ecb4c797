#!/usr/bin/env node
// The mcp-agent command. It wires packages together and holds no domain logic.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ConfigError,
  createContext,
  createLogger,
  InvalidArgumentsError,
  McpAgentError,
  parseServerConfig,
  toMcpAgentError,
  type AgentContext,
} from '@mcp-agent/core';
import { codeToolCaller } from '@mcp-agent/actions';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { serveHttpGateway, serveStdioGateway, StaticTokenVerifier } from '@mcp-agent/server';

const HELP: Record<string, string> = {
  '': `mcp-agent — a discovery-first agent over your MCP servers

Usage: mcp-agent [--user <id>] [--home <dir>] [--json] <command> …

Commands:
  servers add | import | list | remove | status   manage your MCP servers
  auth login <server> | logout <server>            OAuth for remote servers
  tools search "<query>" | describe <id…> | call <id> --args <json|@file>
  exec <file.js|file.ts>                           run a script in the sandbox
  run "<task>"                                     executeTask, streaming each step
  serve --stdio | --http <port>                    the MCP gateway

Global options:
  --user <id>    the user (tenant); default $MCP_AGENT_USER or your login name
  --home <dir>   where the registry lives; default $MCP_AGENT_HOME or ~/.mcp-agent
  --json         machine-readable output; errors as {"error": {code, message}}

Run "mcp-agent <command> --help" for examples.`,
  servers: `mcp-agent servers — manage your MCP servers

  servers add <id> --command <program> [--arg <a>]… [--env K=V]…
  servers add <id> --url <https://…> [--transport streamable-http|sse|auto] [--header K=V]…
  servers import <mcp.json>        Claude Desktop / Cursor "mcpServers" or VS Code "servers"
  servers list
  servers remove <id>
  servers status                   connect and show readiness, tool counts, last errors

Examples:
  mcp-agent servers add memory --command npx --arg -y --arg @modelcontextprotocol/server-memory
  mcp-agent servers add linear --url https://mcp.linear.app/mcp
  mcp-agent servers import ~/.cursor/mcp.json`,
  auth: `mcp-agent auth — OAuth for remote servers

  auth login <server> [--port 8976]   prints the URL to open; listens on 127.0.0.1 for the callback
  auth logout <server>                deletes the stored tokens`,
  tools: `mcp-agent tools — find, read and call tools

  tools search "<query>" [--limit 5]
  tools describe <toolId>…
  tools call <toolId> --args '{"key": "value"}'   (or --args @args.json)

Examples:
  mcp-agent tools search "create an issue"
  mcp-agent tools describe github.create_issue
  mcp-agent tools call memory.read_graph --args '{}'`,
  exec: `mcp-agent exec <file.js|file.ts> — run a script in the sandbox

The script is an async function body; "return" gives the result. It calls tools as
await tools.<server>.<tool>(args); every tool of your servers is available.`,
  run: `mcp-agent run "<task>" — hand a task to the agent (needs ANTHROPIC_API_KEY)

Example:
  mcp-agent run "Summarise the open issues of acme/app"`,
  serve: `mcp-agent serve — the MCP gateway

  serve --stdio                        one user (--user), for Claude Desktop, Cursor, Claude Code
  serve --http <port>                  on 127.0.0.1; with --tokens <file> every request needs a
                                       bearer token mapped to a user ({"tokens": {"<token>": "<user>"}});
                                       without it, it serves --user alone`,
};

// Exit codes: 0 done, 1 failed, 2 bad usage or input, 3 not found, 4 not ready or unauthorised.
const EXIT: Record<string, number> = {
  INVALID_ARGUMENTS: 2,
  CONFIG_INVALID: 2,
  PROVIDER_NOT_FOUND: 3,
  TOOL_NOT_FOUND: 3,
  NOT_READY: 4,
  UNAUTHORIZED: 4,
};

const argv = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: argv,
  allowPositionals: true,
  strict: false,
  options: {
    user: { type: 'string' },
    home: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    command: { type: 'string' },
    arg: { type: 'string', multiple: true },
    env: { type: 'string', multiple: true },
    url: { type: 'string' },
    transport: { type: 'string' },
    header: { type: 'string', multiple: true },
    limit: { type: 'string' },
    args: { type: 'string' },
    port: { type: 'string' },
    stdio: { type: 'boolean' },
    http: { type: 'string' },
    tokens: { type: 'string' },
  },
});
const asJson = values.json === true;
const out = (human: string, data: unknown) =>
  process.stdout.write(`${asJson ? JSON.stringify(data) : human}\n`);

let stack: AgentStack | undefined;
try {
  const [command, sub, ...rest] = positionals;
  if (command === undefined || values.help === true) {
    process.stdout.write(`${HELP[command ?? ''] ?? HELP['']}\n`);
    process.exit(command === undefined && values.help !== true ? 2 : 0);
  }
  if (!Object.hasOwn(HELP, command)) usage(`unknown command "${command}"`);
  const userId = String(values.user ?? process.env.MCP_AGENT_USER ?? safeUser());
  const home = values.home === undefined ? {} : { home: String(values.home) };
  const needsSandbox = command === 'exec' || command === 'run' || command === 'serve';
  stack = await openAgentStack({
    ...home,
    logger: createLogger({ level: 'error' }),
    ...(needsSandbox ? {} : { sandbox: false }),
  });
  const ctx = createContext({ userId });
  const code = await dispatch(stack, ctx, command, sub, rest);
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
  stack: AgentStack,
  ctx: AgentContext,
  command: string,
  sub: string | undefined,
  rest: string[],
): Promise<'done' | 'serving'> {
  switch (command) {
    case 'servers':
      await servers(stack, ctx, sub, rest);
      return 'done';
    case 'auth':
      await auth(stack, ctx, sub);
      return 'done';
    case 'tools':
      await tools(stack, ctx, sub, rest);
      return 'done';
    case 'exec':
      await exec(stack, ctx, sub);
      return 'done';
    case 'run':
      await run(stack, ctx, [sub, ...rest].filter(Boolean).join(' '));
      return 'done';
    case 'serve':
      return serve(stack, ctx);
    default:
      return usage(`unknown command "${command}"`);
  }
}

async function servers(
  stack: AgentStack,
  ctx: AgentContext,
  sub: string | undefined,
  rest: string[],
): Promise<void> {
  switch (sub) {
    case 'add': {
      const id =
        rest[0] ??
        usage('servers add needs an id: mcp-agent servers add <id> --command … | --url …');
      const pairs = (list: unknown) =>
        Object.fromEntries(((list as string[] | undefined) ?? []).map(splitPair));
      const config =
        values.url !== undefined
          ? {
              id,
              transport: String(values.transport ?? 'auto'),
              url: String(values.url),
              headers: pairs(values.header),
            }
          : {
              id,
              transport: 'stdio',
              command: values.command === undefined ? '' : String(values.command),
              args: (values.arg as string[] | undefined) ?? [],
              env: pairs(values.env),
            };
      parseServerConfig(config);
      const record = await stack.registry.addServer(ctx, config);
      out(`added ${record.providerId} (${record.transport}) for ${ctx.userId}`, {
        added: record.providerId,
      });
      return;
    }
    case 'import': {
      const file =
        rest[0] ?? usage('servers import needs a file: mcp-agent servers import <mcp.json>');
      const result = await stack.registry.importServers(ctx, readFileSync(file, 'utf8'), {
        source: file,
      });
      out(
        `imported ${result.imported.join(', ') || 'nothing'}${result.ignored.length > 0 ? ` (ignored: ${result.ignored.join(', ')})` : ''}`,
        result,
      );
      return;
    }
    case 'list': {
      const list = await stack.registry.activeServers(ctx, { includeDisabled: true });
      out(
        list.length === 0
          ? 'no servers; add one with "mcp-agent servers add"'
          : table(list.map((s) => [s.id, s.scope, s.transport, s.status])),
        list,
      );
      return;
    }
    case 'remove': {
      const id = rest[0] ?? usage('servers remove needs an id');
      await stack.registry.removeServer(ctx, id);
      out(`removed ${id}`, { removed: id });
      return;
    }
    case 'status': {
      const ids = (await stack.registry.activeServers(ctx)).map((s) => s.id);
      const progress = setInterval(() => {
        if (process.stderr.isTTY && !asJson) {
          const ready = stack.pool.status(ctx).filter((s) => s.status === 'ready').length;
          process.stderr.write(`\rconnecting: ${ready}/${ids.length} ready`);
        }
      }, 200);
      await stack.pool.waitForReady(ctx, ids, { timeoutMs: 30_000 }).catch(() => undefined);
      clearInterval(progress);
      if (process.stderr.isTTY && !asJson) process.stderr.write('\r\x1b[K');
      const rows = stack.pool.status(ctx);
      out(
        rows.length === 0
          ? 'no servers'
          : table([
              ['SERVER', 'STATUS', 'TOOLS', 'LAST ERROR'],
              ...rows.map((s) => [
                s.serverId,
                s.status,
                String(s.toolCount ?? '-'),
                s.lastError ?? '',
              ]),
            ]),
        rows.map(({ metrics: _metrics, ...state }) => state),
      );
      if (rows.some((s) => s.status !== 'ready')) process.exitCode = 4;
      return;
    }
    default:
      usage(`unknown "servers ${sub ?? ''}"; see mcp-agent servers --help`);
  }
}

async function auth(stack: AgentStack, ctx: AgentContext, sub: string | undefined): Promise<void> {
  const server = positionals[2] ?? usage(`auth ${sub ?? ''} needs a server id`);
  if (sub === 'logout') {
    await stack.oauth.disconnect(ctx, server);
    out(`signed out of ${server}`, { signedOut: server });
    return;
  }
  if (sub !== 'login') usage(`unknown "auth ${sub ?? ''}"; use login or logout`);
  // A loopback listener receives the callback; the URL is printed, never opened through a shell.
  const port = Number(values.port ?? 8976);
  const redirect = `http://127.0.0.1:${port}/callback`;
  const received = new Promise<{ code: string; state: string }>((resolve, reject) => {
    const listener = createServer((req, res) => {
      const url = new URL(req.url ?? '/', redirect);
      const code = url.searchParams.get('code');
      res
        .writeHead(code ? 200 : 400, { 'content-type': 'text/plain' })
        .end(code ? 'Signed in; you can close this tab.' : 'No code in the callback.');
      listener.close();
      if (code) resolve({ code, state: url.searchParams.get('state') ?? '' });
      else reject(new InvalidArgumentsError('The callback carried no authorisation code.'));
    });
    listener.listen(port, '127.0.0.1');
  });
  const { authorizationUrl } = await stack.oauth.startOAuth(ctx, server, redirect);
  if (authorizationUrl === '') {
    out(`${server} is already authorised`, { authorised: server });
    return;
  }
  process.stderr.write(`Open this URL to sign in to ${server}:\n  ${authorizationUrl}\n`);
  const { code, state } = await received;
  await stack.oauth.finalizeOAuth(ctx, server, code, state);
  out(`signed in to ${server}`, { authorised: server });
}

async function tools(
  stack: AgentStack,
  ctx: AgentContext,
  sub: string | undefined,
  rest: string[],
): Promise<void> {
  await waitQuietly(stack, ctx);
  switch (sub) {
    case 'search': {
      const query =
        rest.join(' ') ||
        usage('tools search needs a query: mcp-agent tools search "create an issue"');
      const results = await stack.knowledge.search(ctx, query, {
        limit: Number(values.limit ?? 5),
      });
      out(
        results.length === 0
          ? 'no tools matched'
          : table(results.map((r) => [r.tool_id, r.score.toFixed(2), r.description.slice(0, 70)])),
        results,
      );
      return;
    }
    case 'describe': {
      if (rest.length === 0) usage('tools describe needs tool ids');
      const { tools: described, errors } = await stack.knowledge.deepView(ctx, rest);
      if (described.length === 0 && errors[0] !== undefined) throw errors[0];
      out(JSON.stringify(described, null, 2), {
        tools: described,
        errors: errors.map((e) => e.toJSON()),
      });
      return;
    }
    case 'call': {
      const id = rest[0] ?? usage('tools call needs a tool id');
      const text = values.args === undefined ? '{}' : String(values.args);
      let args: unknown;
      try {
        args = JSON.parse(text.startsWith('@') ? readFileSync(text.slice(1), 'utf8') : text);
      } catch (error) {
        throw new InvalidArgumentsError(
          `--args is not valid JSON (${(error as Error).message}); pass an object, e.g. --args '{"repo": "acme/app"}'.`,
        );
      }
      const response = await stack.dispatcher.dispatchTool(ctx, id, args, { signal: ctx.signal });
      if (!response.ok)
        throw new McpAgentError(response.error.code, response.error.message, {
          details: response.error.details,
        });
      out(
        typeof response.data === 'string' ? response.data : JSON.stringify(response.data, null, 2),
        response,
      );
      return;
    }
    default:
      usage(`unknown "tools ${sub ?? ''}"; see mcp-agent tools --help`);
  }
}

async function exec(stack: AgentStack, ctx: AgentContext, file: string | undefined): Promise<void> {
  const path = file ?? usage('exec needs a file: mcp-agent exec script.js');
  const code = readFileSync(path, 'utf8');
  await waitQuietly(stack, ctx);
  const manifest = await stack.knowledge.manifest(ctx);
  const available = manifest.providers.flatMap((p) =>
    p.tools.filter((t) => t.available).map((t) => ({ provider: p.provider.id, name: t.spec.name })),
  );
  const result = await stack.sandbox?.run(code, {
    tools: available,
    callTool: codeToolCaller(stack.dispatcher, ctx),
    language: ['.ts', '.mts', '.cts'].includes(extname(path)) ? 'typescript' : 'javascript',
  });
  if (result === undefined) throw new ConfigError('The sandbox is not available.');
  for (const line of result.logs) process.stderr.write(`${line}\n`);
  if (!result.ok)
    throw new McpAgentError('SANDBOX_ERROR', `${result.error.kind}: ${result.error.message}`);
  out(JSON.stringify(result.value, null, 2), result);
}

async function run(stack: AgentStack, ctx: AgentContext, task: string): Promise<void> {
  if (task === '') usage('run needs a task: mcp-agent run "Summarise the open issues"');
  const result = await stack.agent.executeTask(task, ctx.userId, {
    onEvent: (event) => {
      if (asJson) process.stdout.write(`${JSON.stringify(event)}\n`);
      else if (event.type === 'tool-call')
        process.stderr.write(
          `→ ${event.command} ${JSON.stringify(event.arguments).slice(0, 120)}\n`,
        );
      else if (event.type === 'observation' && !event.ok)
        process.stderr.write(`  ✗ ${JSON.stringify(event.observation).slice(0, 160)}\n`);
    },
  });
  if (result.status !== 'completed')
    throw new McpAgentError(
      result.error?.code ?? 'INTERNAL',
      result.error?.message ?? result.status,
    );
  out(result.answer ?? '', result);
}

async function serve(stack: AgentStack, ctx: AgentContext): Promise<'serving'> {
  if (values.stdio === true) {
    await serveStdioGateway({ stack, userId: ctx.userId });
    return 'serving';
  }
  if (values.http === undefined) usage('serve needs --stdio or --http <port>');
  const verifier =
    values.tokens === undefined ? undefined : StaticTokenVerifier.fromFile(String(values.tokens));
  const served = await serveHttpGateway({
    stack,
    port: Number(values.http),
    ...(verifier === undefined ? { singleUser: ctx.userId } : { verifier }),
  });
  process.stderr.write(
    `MCP gateway on ${served.url} (${verifier === undefined ? `user ${ctx.userId}` : 'bearer tokens'})\n`,
  );
  return 'serving';
}

async function waitQuietly(stack: AgentStack, ctx: AgentContext): Promise<void> {
  const ids = (await stack.registry.activeServers(ctx)).map((s) => s.id);
  await stack.pool.waitForReady(ctx, ids, { timeoutMs: 30_000 }).catch(() => undefined);
}

function usage(message: string): never {
  throw new InvalidArgumentsError(`${message}. Run "mcp-agent --help".`);
}

function hint(error: McpAgentError): string {
  if (error.code === 'NOT_READY') return ' (see "mcp-agent servers status")';
  if (error.code === 'UNAUTHORIZED') return ' (sign in with "mcp-agent auth login <server>")';
  return '';
}

function splitPair(pair: string): [string, string] {
  const index = pair.indexOf('=');
  if (index <= 0) usage(`"${pair}" is not KEY=VALUE`);
  return [pair.slice(0, index), pair.slice(index + 1)];
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
    )
    .join('\n');
}

function safeUser(): string {
  try {
    return userInfo().username || 'local';
  } catch {
    return 'local';
  }
}

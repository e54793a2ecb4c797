import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ConfigError, SandboxError, toMcpAgentError, type AgentContext } from '@mcp-agent/core';
import { codeToolCaller } from '@mcp-agent/actions';
import type { AgentStack } from '@mcp-agent/agent';
import { fileProblem } from '../cli-errors.js';
import { usage, type Invocation } from '../invocation.js';
import { writeMediaFiles } from '../media-files.js';
import { failedNote } from './failed-note.js';
import { explainMissingTool } from './missing-tool.js';

/** exec <file>: the script runs in the sandbox with every available tool of the user. */
export async function exec(
  cli: Invocation,
  stack: AgentStack,
  ctx: AgentContext,
  file: string | undefined,
): Promise<void> {
  const { out } = cli;
  const path = file ?? usage('exec needs a file: mcp-agent exec script.js', 'exec');
  let code: string;
  try {
    code = readFileSync(path, 'utf8');
  } catch (error) {
    throw fileProblem(path, error);
  }
  // Lazy start: the script's tools are declared from the stored catalogs, and a server starts
  // on the script's first call to it (the dispatcher's), so one it never calls costs nothing.
  // A server without a stored catalog (never connected, or its last attempt failed): one the
  // script names is connected first; the others are named on standard error only when the
  // script builds tool names at run time (tools[name]), the one case where it may reach them.
  const manifest = await stack.knowledge.manifest(ctx);
  const unknown = manifest.servers.filter((p) => p.server.toolCount === null);
  const named = unknown.filter((p) => namesServer(code, p.server.id));
  const unconnected = new Map<string, string>();
  await Promise.all(
    named.map((p) =>
      stack.pool.ready(ctx, p.server.id).catch((error: unknown) => {
        const reason = toMcpAgentError(error).message;
        unconnected.set(p.server.id, reason);
        process.stderr.write(
          `note: ${p.server.id} could not be connected, so the script cannot call its tools: ${reason}\n`,
        );
      }),
    ),
  );
  const catalogs = named.length === 0 ? manifest : await stack.knowledge.manifest(ctx);
  if (buildsToolNames(code))
    noteUnconnected(unknown.filter((p) => !named.includes(p)).map((p) => p.server));
  const given = catalogs.servers.filter(
    (p) => p.server.excludedBy === undefined && p.server.authorized,
  );
  const available = given.flatMap((p) =>
    p.tools.map((t) => ({ server: p.server.id, name: t.spec.name })),
  );
  const result = await stack.sandbox?.run(code, {
    tools: available,
    callTool: codeToolCaller(stack.dispatcher, ctx),
    // A code caller: the script's whole value, up to the operator's cap on one result.
    limits: { maxResultChars: stack.dispatcher.maxResultBytes },
    language: ['.ts', '.mts', '.cts'].includes(extname(path)) ? 'typescript' : 'javascript',
  });
  if (result === undefined) throw new ConfigError('The sandbox is not available.');
  for (const line of result.logs) process.stderr.write(`${line}\n`);
  if (!result.ok) {
    // A name the run was not given: why, in the CLI's terms (not connected, a misspelt tool).
    const explained = explainMissingTool(result.error.message, {
      tools: new Map(given.map((p) => [p.server.id, p.tools.map((t) => t.spec.name)])),
      unconnected,
    });
    throw new SandboxError(`${result.error.kind}: ${explained ?? result.error.message}`);
  }
  // Media the script returns are written to files, as `tools call` writes them.
  const { value, files } = writeMediaFiles(result.value, {
    name: basename(path, extname(path)),
    ...(typeof cli.values.out === 'string' ? { out: cli.values.out } : {}),
  });
  out(JSON.stringify(value, null, 2), {
    ...result,
    value,
    ...(files.length === 0 ? {} : { files }),
  });
}

// Whether the script names a server: its id as a word of the code (tools.github,
// tools["my-server"]), so a script that builds its names at run time reaches only servers
// already connected once.
function namesServer(code: string, serverId: string): boolean {
  const identifier = serverId.replace(/[^A-Za-z0-9_$]/g, '_');
  const word = (name: string) =>
    new RegExp(`(^|[^A-Za-z0-9_$-])${name.replace(/[-$]/g, '\\$&')}($|[^A-Za-z0-9_$-])`).test(code);
  return word(serverId) || word(identifier);
}

// tools[name] with a name that is not a literal: the script picks servers or tools at run time.
function buildsToolNames(code: string): boolean {
  return (
    /\btools\s*\[\s*[^\s'"`\]]/.test(code) || /\btools\s*\.\s*[\w$-]+\s*\[\s*[^\s'"`\]]/.test(code)
  );
}

// Servers a script building its names at run time cannot reach, each with its last real state.
function noteUnconnected(servers: readonly { id: string; lastError: string | null }[]): void {
  const never = servers.filter((s) => s.lastError === null).map((s) => s.id);
  if (never.length > 0)
    process.stderr.write(
      `note: ${never.join(', ')} ${never.length === 1 ? 'has' : 'have'} never been connected, so the script cannot call ${never.length === 1 ? 'its' : 'their'} tools; name ${never.length === 1 ? 'it' : 'them'} in the script (tools.<server>.<tool>) or run "mcp-agent servers status" to connect ${never.length === 1 ? 'it' : 'them'}.\n`,
    );
  for (const server of servers.filter((s) => s.lastError !== null))
    process.stderr.write(failedNote(server));
}

import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { ConfigError, SandboxError, type AgentContext } from '@mcp-agent/core';
import { codeToolCaller } from '@mcp-agent/actions';
import type { AgentStack } from '@mcp-agent/agent';
import { fileProblem } from '../cli-errors.js';
import { usage, type Invocation } from '../invocation.js';

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
  await stack.pool.warmUp(ctx);
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
  if (!result.ok) throw new SandboxError(`${result.error.kind}: ${result.error.message}`);
  out(JSON.stringify(result.value, null, 2), result);
}

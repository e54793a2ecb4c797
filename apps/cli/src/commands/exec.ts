import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ConfigError, SandboxError, type AgentContext } from '@mcp-agent/core';
import { codeToolCaller } from '@mcp-agent/actions';
import type { AgentStack } from '@mcp-agent/agent';
import { fileProblem } from '../cli-errors.js';
import { usage, type Invocation } from '../invocation.js';
import { writeMediaFiles } from '../media-files.js';

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

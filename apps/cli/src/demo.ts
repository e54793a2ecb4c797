import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clip, createContext, createLogger, McpAgentError } from '@mcp-agent/core';
import { codeToolCaller } from '@mcp-agent/actions';
import { isModelConfigured, openAgentStack } from '@mcp-agent/agent';
import { generateDeclarations } from '@mcp-agent/execution';
import { toToolSpec } from '@mcp-agent/registry';

// The README's demo: the whole discovery-first walk on the embedded default (SQLite under
// .mcp-agent/ in this checkout), with three real MCP servers from npm over stdio.
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const cliModules = fileURLToPath(new URL('../node_modules', import.meta.url));
const file = process.argv[2] ?? join(repo, 'examples', 'mcp-servers.json');
const home = process.env.MCP_AGENT_HOME ?? join(repo, '.mcp-agent');
const files = mkdtempSync(join(tmpdir(), 'mcp-agent-demo-'));
const line = (text = '') => console.log(text);
const indent = (text: string) => text.replace(/^/gm, '   ');
const json = (value: unknown) => JSON.stringify(value, null, 2);

const stack = await openAgentStack({ home, logger: createLogger({ level: 'warn' }) });
const ctx = createContext({ userId: 'demo-alice' });
try {
  line(`mcp-agent demo — registry at ${home} (SQLite, the embedded default)\n`);

  line(`1. Import ${file} for ${ctx.userId}`);
  // A clean slate for the demo user on every run; the file is then the whole configuration.
  for (const old of await stack.registry.storedServers(ctx)) {
    if (old.scope === 'user') await stack.registry.removeServer(ctx, old.serverId);
  }
  const imported = await stack.registry.importServers(ctx, readFileSync(file, 'utf8'), {
    source: file,
    env: { ...process.env, MCP_AGENT_DEMO_MODULES: cliModules, MCP_AGENT_DEMO_FILES: files },
  });
  line(
    `   ${imported.imported.join(', ')} (env values and headers are kept encrypted in the vault)`,
  );

  line('\n2. Connect and wait for readiness (one persistent session per user and server)');
  const started = Date.now();
  const ids = (await stack.registry.availability(ctx)).active.map((s) => s.id);
  await stack.pool.waitForReady(ctx, ids, { timeoutMs: 30_000 });
  for (const s of stack.pool.status(ctx))
    line(`   ${s.serverId.padEnd(11)} ${s.status}, ${s.toolCount} tools`);
  line(
    `   ready in ${Date.now() - started} ms; another user sees ${(await stack.registry.activeServers(createContext({ userId: 'demo-bob' }))).length} of these servers`,
  );

  line('\n3. The inventory view: all the model sees up front');
  line(indent(await stack.knowledge.inventoryView(ctx)));

  line('\n4. search_tools("remember a fact about a person")');
  for (const hit of await stack.knowledge.search(ctx, 'remember a fact about a person', {
    limit: 3,
  })) {
    line(
      `   ${hit.tool_id.padEnd(28)} ${hit.score.toFixed(2).padStart(6)}  ${hit.description.slice(0, 60)}`,
    );
  }

  line('\n5. describe_tools(["memory.create_entities"]): the deep view');
  const { tools } = await stack.knowledge.deepView(ctx, [
    'memory.create_entities',
    'files.write_file',
    'memory.read_graph',
  ]);
  line(indent(json(tools[0])));

  line('\n6. call_tool files.write_file: validated, policed, pooled, slimmed');
  const written = await stack.dispatcher.dispatchTool(ctx, 'files.write_file', {
    path: join(files, 'hello.txt'),
    content: 'Hello from mcp-agent',
  });
  line(`   ${json(written).replace(/\n\s*/g, ' ')}`);
  const invalid = await stack.dispatcher.dispatchTool(ctx, 'files.write_file', { path: 42 });
  line(
    `   with bad arguments: ${invalid.ok ? 'ok?!' : `${invalid.error.code}: ${invalid.error.message}`}`,
  );

  line('\n7. run_code: one sandboxed script, two tools (isolated-vm in a worker process)');
  const memoryTools = (await stack.registry.storedTools(ctx, 'memory'))
    .map((tool) => toToolSpec('memory', tool.raw))
    .filter((t) => ['create_entities', 'read_graph'].includes(t.name));
  const declared = memoryTools.map((t) => ({ server: t.serverId, name: t.name }));
  const declarations = generateDeclarations(
    memoryTools.map((t) => ({
      server: t.serverId,
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
  );
  line(indent(clip(declarations, 420)));
  const code = [
    'await tools.memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] });',
    'const graph = await tools.memory.read_graph({});',
    'console.log("entities in memory:", graph.entities?.length ?? graph);',
    'return graph.entities?.map((e) => e.name) ?? graph;',
  ].join('\n');
  line(indent(code));
  const run = await stack.sandbox?.run(code, {
    tools: declared,
    callTool: codeToolCaller(stack.dispatcher, ctx),
  });
  line(
    `   → ${run?.ok ? `${JSON.stringify(run.value)} (logs: ${JSON.stringify(run.logs)}, ${run.toolCalls} tool calls, ${run.durationMs} ms)` : JSON.stringify(run?.error)}`,
  );

  line('\n8. executeTask("…", userId): the model drives steps 4 to 7 itself');
  if (isModelConfigured()) {
    const result = await stack.agent.executeTask(
      'What does the file hello.txt in the allowed directory say?',
      ctx.userId,
      {
        onEvent: (event) => {
          if (event.type === 'tool-call')
            line(`   → ${event.command} ${JSON.stringify(event.arguments).slice(0, 100)}`);
        },
      },
    );
    line(
      `   ${result.status}: ${result.answer ?? result.error?.message} (${result.steps.length} steps, ${result.usage.inputTokens} input tokens, estimated $${result.usage.estimatedCostUsd ?? '?'})`,
    );
  } else {
    line('   No model endpoint is configured, so this step is skipped. To run it, set either');
    line(
      '     ANTHROPIC_API_KEY=…                  (Anthropic; ANTHROPIC_BASE_URL for another endpoint)',
    );
    line('     MCP_AGENT_MODEL=anthropic:claude-sonnet-5-5   (optional: the default)');
    line('   or');
    line('     MCP_AGENT_MODEL=openai:<model>       with OPENAI_API_KEY and/or OPENAI_BASE_URL');
    line(
      '                                          (OpenAI, vLLM, Ollama, llama.cpp, LM Studio, LiteLLM)',
    );
    line('   and run the demo again.');
  }

  line('\n9. A broken config file is refused whole, every bad path named, nothing written:');
  try {
    await stack.registry.importServers(
      ctx,
      {
        mcpServers: {
          'my.server': { command: 'node' },
          github: { type: 'http', url: 'not a url' },
        },
      },
      { source: 'broken.json', env: {} },
    );
  } catch (error) {
    if (!McpAgentError.isInstance(error)) throw error;
    line(`   ${error.code}: ${error.message}`);
  }
} finally {
  await stack.close();
}

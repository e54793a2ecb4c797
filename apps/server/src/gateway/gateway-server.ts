import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  createContext,
  parseToolId,
  toMcpAgentError,
  type AgentContext,
  type Logger,
} from '@mcp-agent/core';
import { codeToolCaller } from '@mcp-agent/actions';
import { isModelConfigured, type AgentStack } from '@mcp-agent/agent';

/** Options of {@link createGatewayServer}. */
export interface GatewayServerOptions {
  readonly stack: AgentStack;
  /** The user (tenant) every call of this session acts for. */
  readonly userId: string;
  readonly logger?: Logger;
  /** Offer execute_task; default: when a model endpoint is configured. */
  readonly executeTask?: boolean;
}

const INSTRUCTIONS =
  'This gateway reaches the MCP servers connected for you. Work in order: search_tools to find tools by what they do, describe_tools to read their parameters, then call_tool for one call or run_code for a script that calls several described tools and returns only what matters.';

/**
 * One MCP server session bound to one user: the discovery-first meta-tools over that user's
 * servers, routed through the same knowledge, dispatcher (validation, policy, tenancy) and
 * sandbox as the agent. The client's cancellation reaches the upstream call.
 */
export function createGatewayServer(options: GatewayServerOptions): McpServer {
  const { stack, userId } = options;
  const server = new McpServer(
    { name: 'mcp-agent-gateway', version: '0.0.0' },
    { capabilities: { logging: {}, tools: {} }, instructions: INSTRUCTIONS },
  );
  const described = new Set<string>();
  const context = (signal: AbortSignal): AgentContext =>
    createContext({
      userId,
      signal,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  const respond = (value: unknown, isError = false): CallToolResult => ({
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(isError ? { isError: true } : {}),
  });
  // The user's servers are connected and discovered once per session, before the first use;
  // a server that fails stays out of the results and says so in its availability.
  let warmed: Promise<void> | undefined;
  const warm = () =>
    (warmed ??= (async () => {
      const ctx = createContext({ userId });
      const ids = (await stack.registry.activeServers(ctx)).map((s) => s.id);
      await stack.pool.waitForReady(ctx, ids, { timeoutMs: 30_000 }).catch(() => undefined);
    })());
  const guard = async (run: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      await warm();
      return await run();
    } catch (thrown) {
      const error = toMcpAgentError(thrown);
      return respond({ error: { code: error.code, message: error.message } }, true);
    }
  };

  server.registerTool(
    'search_tools',
    {
      description:
        'Step 1. Find tools by what you want to do, in plain words. Returns tool ids with one-line descriptions.',
      inputSchema: {
        query: z.string().min(1),
        limit: z.number().int().min(1).max(20).optional(),
        providers: z.array(z.string()).optional(),
      },
    },
    ({ query, limit, providers }, extra) =>
      guard(async () =>
        respond({
          results: await stack.knowledge.search(context(extra.signal), query, {
            limit: limit ?? 5,
            ...(providers === undefined ? {} : { providers }),
          }),
        }),
      ),
  );

  server.registerTool(
    'describe_tools',
    {
      description:
        'Step 2. Read parameters, output fields and the call signature of tools found by search_tools. Describe a tool before calling it.',
      inputSchema: {
        tool_ids: z.array(z.string()).min(1).max(10),
        full: z.boolean().optional().describe('Lift the cuts of long descriptions and lists.'),
      },
    },
    ({ tool_ids, full }, extra) =>
      guard(async () => {
        const { tools, errors } = await stack.knowledge.deepView(context(extra.signal), tool_ids, {
          full: full === true,
        });
        for (const tool of tools) described.add(tool.tool_id);
        return respond(
          { tools, errors: errors.map((e) => ({ code: e.code, message: e.message })) },
          tools.length === 0,
        );
      }),
  );

  server.registerTool(
    'call_tool',
    {
      description: 'Step 3a. Call one tool with arguments matching its parameters.',
      inputSchema: { tool_id: z.string(), arguments: z.record(z.string(), z.unknown()) },
    },
    ({ tool_id, arguments: args }, extra) =>
      guard(async () => {
        // The client's progress token, if it sent one, receives the upstream server's progress,
        // in order and all of it before the result.
        const progressToken = extra._meta?.progressToken;
        let forwarded = Promise.resolve();
        const response = await stack.dispatcher.dispatchTool(context(extra.signal), tool_id, args, {
          signal: extra.signal,
          ...(progressToken === undefined
            ? {}
            : {
                onProgress: (progress) => {
                  forwarded = forwarded
                    .then(() =>
                      extra.sendNotification({
                        method: 'notifications/progress',
                        params: { progressToken, ...progress },
                      }),
                    )
                    .catch(() => undefined);
                },
              }),
        });
        await forwarded;
        return response.ok
          ? respond({ result: response.data, meta: response.meta })
          : respond({ error: response.error }, true);
      }),
  );

  server.registerTool(
    'run_code',
    {
      description:
        'Step 3b. Run JavaScript that calls described tools as `await tools.<server>.<tool>(args)` and returns only what matters (an async function body). No network, timers or modules.',
      inputSchema: {
        code: z.string().min(1),
        language: z.enum(['javascript', 'typescript']).optional(),
      },
    },
    ({ code, language }, extra) =>
      guard(async () => {
        if (stack.sandbox === undefined)
          return respond(
            { error: { code: 'SANDBOX_ERROR', message: 'run_code is not available here.' } },
            true,
          );
        const ctx = context(extra.signal);
        const tools = [...described].map((id) => {
          const parsed = parseToolId(id);
          return { provider: parsed.providerId, name: parsed.toolName };
        });
        const result = await stack.sandbox.run(code, {
          tools,
          callTool: codeToolCaller(stack.dispatcher, ctx),
          signal: extra.signal,
          language: language ?? 'javascript',
        });
        return result.ok
          ? respond({ result: result.value, logs: result.logs })
          : respond({ error: result.error, logs: result.logs }, true);
      }),
  );

  if (options.executeTask ?? isModelConfigured()) {
    server.registerTool(
      'execute_task',
      {
        description:
          'Hand a whole task to the agent, which searches, describes and calls tools itself and answers in words.',
        inputSchema: { task: z.string().min(1) },
      },
      ({ task }, extra) =>
        guard(async () => {
          const result = await stack.agent.executeTask(task, userId, { signal: extra.signal });
          return respond(result, result.status !== 'completed');
        }),
    );
  }
  return server;
}

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolResultSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutionError } from '@mcp-agent/core';

/**
 * Calls a tool that runs only as an MCP task: the SDK creates the task and polls it to the end;
 * each status is reported as progress, and `ceilingMs` bounds the whole task.
 */
export async function callToolAsTask(
  client: Client,
  serverId: string,
  name: string,
  args: Record<string, unknown>,
  request: RequestOptions,
  options: {
    readonly onProgress: ((progress: Progress) => void) | undefined;
    readonly ceilingMs: number;
  },
): Promise<CallToolResult> {
  if (client.getServerCapabilities()?.tasks?.requests?.tools?.call === undefined)
    throw new ToolExecutionError(
      `${serverId}.${name} runs only as an MCP task, but the server does not declare task support for tools/call: it cannot be called.`,
      { details: { toolId: `${serverId}.${name}`, reason: 'tasks_unsupported' } },
    );
  const deadline = AbortSignal.timeout(options.ceilingMs);
  const signal =
    request.signal === undefined ? deadline : AbortSignal.any([request.signal, deadline]);
  let updates = 0;
  const stream = client.experimental.tasks.callToolStream(
    { name, arguments: args },
    CallToolResultSchema,
    { ...request, signal, task: {} },
  );
  for await (const message of stream) {
    switch (message.type) {
      case 'taskCreated':
      case 'taskStatus': {
        const { status, statusMessage } = message.task;
        options.onProgress?.({
          progress: ++updates,
          message: statusMessage === undefined ? status : `${status}: ${statusMessage}`,
        });
        break;
      }
      case 'result':
        return message.result as CallToolResult;
      case 'error':
        if (deadline.aborted)
          throw Object.assign(
            new Error(
              `The task of ${serverId}.${name} did not finish within ${options.ceilingMs} ms.`,
            ),
            { name: 'TimeoutError' },
          );
        request.signal?.throwIfAborted();
        throw message.error;
    }
  }
  throw new ToolExecutionError(`The task of ${serverId}.${name} ended without a result.`);
}

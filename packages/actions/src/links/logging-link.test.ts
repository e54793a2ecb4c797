import { describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { createMemoryLogger } from '@mcp-agent/core/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { operationCall } from '../server-operations.js';
import { loggingLink } from './logging-link.js';

// A real logger at `level`, its lines kept, on a request's context.
function logged(level: 'debug' | 'info', signal?: AbortSignal) {
  const memory = createMemoryLogger(level);
  return {
    ctx: createContext({
      userId: 'alice',
      logger: memory.logger,
      ...(signal === undefined ? {} : { signal }),
    }),
    lines: memory.lines,
  };
}

const call = operationCall(
  'resources/list',
  'docs',
  {},
  {
    caller: 'model',
    signal: new AbortController().signal,
  },
);
const answered: CallToolResult = { content: [{ type: 'text', text: 'ok' }] };

describe('loggingLink', () => {
  it('logs a success at debug, with the tool, the caller, the outcome and nothing of the result', async () => {
    const { ctx, lines } = logged('debug');
    await expect(loggingLink(ctx, call, async () => answered)).resolves.toBe(answered);
    expect(lines()).toMatchObject([
      {
        level: 20,
        msg: 'tool call',
        toolId: 'docs.resources/list',
        caller: 'model',
        isError: false,
      },
    ]);
    expect(JSON.stringify(lines())).not.toContain('"ok"');
  });

  it('logs no success above debug, and still every failure at warn, thrown or rejected', async () => {
    const { ctx, lines } = logged('info');
    await expect(loggingLink(ctx, call, async () => answered)).resolves.toBe(answered);
    expect(lines()).toEqual([]);
    await expect(
      loggingLink(ctx, call, () => Promise.reject(new Error('server went away'))),
    ).rejects.toThrow('server went away');
    await expect(
      loggingLink(ctx, call, () => {
        throw new Error('link threw at once');
      }),
    ).rejects.toThrow('link threw at once');
    expect(lines()).toMatchObject([
      {
        level: 40,
        msg: 'tool call failed',
        toolId: 'docs.resources/list',
        error: 'server went away',
      },
      { level: 40, msg: 'tool call failed', error: 'link threw at once' },
    ]);
  });

  it('GW-09 logs a call its caller cancelled at debug, not as a failure', async () => {
    const cancel = new AbortController();
    const quiet = logged('info', cancel.signal);
    cancel.abort('the client cancelled');
    const aborted = () => Promise.reject(new Error('This operation was aborted'));
    await expect(loggingLink(quiet.ctx, call, aborted)).rejects.toThrow('aborted');
    expect(quiet.lines()).toEqual([]);
    const verbose = logged('debug', cancel.signal);
    await expect(loggingLink(verbose.ctx, call, aborted)).rejects.toThrow('aborted');
    expect(verbose.lines()).toMatchObject([
      { level: 20, msg: 'tool call cancelled', toolId: 'docs.resources/list' },
    ]);
  });
});

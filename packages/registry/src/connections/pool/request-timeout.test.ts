import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { TimeoutError } from '@mcp-agent/core';
import { explainTimeout, ProgressSeen } from './request-timeout.js';

const limits = { timeoutMs: 2_000, ceilingMs: 600_000 };

describe('a request timeout explained', () => {
  it('names the server, the limit, the progress seen and how to raise the limit', () => {
    const seen = new ProgressSeen();
    const listener = seen.listen(() => undefined);
    listener({ progress: 1, total: 4 });
    listener({ progress: 2, total: 4, message: 'copying' });
    const error = explainTimeout(
      new McpError(ErrorCode.RequestTimeout, 'Request timed out'),
      'files',
      limits,
      seen,
    );
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as TimeoutError).message).toBe(
      'Server "files" sent no answer within 2 s (after 2 progress notifications, the last 2 of 4 ("copying")). Raise the limit for one call ("mcp-agent tools call … --timeout <seconds>"), or the server\'s timeoutMs ("mcp-agent servers add files … --timeout <seconds> --replace").',
    );
    expect((error as TimeoutError).details).toEqual({
      serverId: 'files',
      limit: 'timeoutMs',
      limitMs: 2_000,
      progressNotifications: 2,
    });
  });

  it('says when the ceiling on one request ran out though progress kept coming', () => {
    const seen = new ProgressSeen();
    seen.listen(() => undefined)({ progress: 9 });
    const error = explainTimeout(
      new McpError(ErrorCode.RequestTimeout, 'Maximum total timeout exceeded'),
      'files',
      limits,
      seen,
    ) as TimeoutError;
    expect(error.message).toMatch(
      /ran past the 600 s ceiling on one request \(after 1 progress notification, the last 9\); the operator raises it/,
    );
    expect(error.details).toMatchObject({ limit: 'maxTotalTimeoutMs', limitMs: 600_000 });
  });

  it('leaves every other error as it was, a cancellation too (the SDK gives it the same code)', () => {
    const other = new McpError(ErrorCode.InvalidParams, 'bad');
    expect(explainTimeout(other, 'files', limits, new ProgressSeen())).toBe(other);
    const cancelled = new McpError(ErrorCode.RequestTimeout, 'Error: user cancelled');
    expect(explainTimeout(cancelled, 'files', limits, new ProgressSeen())).toBe(cancelled);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  McpAgentError,
  NotFoundError,
  ServerNotFoundError,
  QuotaExceededError,
} from '@mcp-agent/core';
import { exitCode } from './cli-errors.js';

describe('exit codes', () => {
  it('a missing task or result exits 3, like a missing server; every code has a decided exit', () => {
    expect(exitCode(new NotFoundError('No such task.'))).toBe(3);
    expect(exitCode(new ServerNotFoundError('No server "x".'))).toBe(3);
    expect(exitCode(new QuotaExceededError('Used up.'))).toBe(5);
    for (const code of Object.values(ErrorCode))
      expect([1, 2, 3, 4, 5]).toContain(exitCode(new McpAgentError(code, code)));
  });
});

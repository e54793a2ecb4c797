import { describe, expect, it } from 'vitest';
import { ErrorCode, isErrorCode } from './error-codes.js';
import {
  BudgetExceededError,
  CancelledError,
  ConfigError,
  CredentialError,
  InvalidArgumentsError,
  McpAgentError,
  NotFoundError,
  NotReadyError,
  PayloadTooLargeError,
  PolicyDeniedError,
  ServerNotFoundError,
  QuotaExceededError,
  RateLimitedError,
  SandboxError,
  TimeoutError,
  ToolExecutionError,
  ToolNotFoundError,
  UnauthorizedError,
} from './errors.js';
import { toMcpAgentError } from './to-mcp-agent-error.js';

const classes = [
  [ServerNotFoundError, 'SERVER_NOT_FOUND'],
  [ToolNotFoundError, 'TOOL_NOT_FOUND'],
  [NotFoundError, 'NOT_FOUND'],
  [UnauthorizedError, 'UNAUTHORIZED'],
  [ToolExecutionError, 'TOOL_EXECUTION_FAILED'],
  [InvalidArgumentsError, 'INVALID_ARGUMENTS'],
  [NotReadyError, 'NOT_READY'],
  [BudgetExceededError, 'BUDGET_EXCEEDED'],
  [SandboxError, 'SANDBOX_ERROR'],
  [ConfigError, 'CONFIG_INVALID'],
  [CancelledError, 'CANCELLED'],
  [TimeoutError, 'TIMEOUT'],
  [CredentialError, 'CREDENTIAL_UNREADABLE'],
  [PolicyDeniedError, 'POLICY_DENIED'],
  [RateLimitedError, 'RATE_LIMITED'],
  [QuotaExceededError, 'QUOTA_EXCEEDED'],
  [PayloadTooLargeError, 'PAYLOAD_TOO_LARGE'],
] as const;

describe('error hierarchy', () => {
  it.each(classes)('%o carries its stable code, name, cause and details', (ErrorClass, code) => {
    const cause = new Error('root cause');
    const error = new ErrorClass('it broke', { cause, details: { server: 'github', count: 2 } });
    expect(error).toBeInstanceOf(McpAgentError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(ErrorClass.code).toBe(code);
    expect(error.name).toBe(ErrorClass.name);
    expect(error.message).toBe('it broke');
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ server: 'github', count: 2 });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: ErrorClass.name,
      code,
      message: 'it broke',
      details: { server: 'github', count: 2 },
    });
  });

  it('isInstance on a subclass matches only that subclass, on the base every error', () => {
    const notFound = new ToolNotFoundError('no such tool');
    expect(ToolNotFoundError.isInstance(notFound)).toBe(true);
    expect(ServerNotFoundError.isInstance(notFound)).toBe(false);
    expect(McpAgentError.isInstance(notFound)).toBe(true);
    expect(McpAgentError.isInstance(new Error('plain'))).toBe(false);
    expect(McpAgentError.isInstance(null)).toBe(false);
    expect(McpAgentError.isInstance({ code: 'TOOL_NOT_FOUND' })).toBe(false);
  });

  it('isInstance recognises an error made by another copy of the package (Symbol.for brand)', () => {
    const foreign = Object.assign(new Error('from another copy'), { code: 'TOOL_NOT_FOUND' });
    Object.defineProperty(foreign, Symbol.for('@mcp-agent/core/error'), { value: true });
    expect(ToolNotFoundError.isInstance(foreign)).toBe(true);
    expect(SandboxError.isInstance(foreign)).toBe(false);
  });

  it('details are made JSON-safe: cycles, bigints, functions and errors', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const error = new McpAgentError(ErrorCode.Internal, 'x', {
      details: { cyclic, big: 10n, fn: () => 1, nested: new Error('inner'), nan: Number.NaN },
    });
    expect(error.details).toEqual({
      cyclic: { name: 'loop', self: '[Circular]' },
      big: '10',
      nested: { name: 'Error', message: 'inner' },
      nan: 'NaN',
    });
    expect(() => JSON.stringify(error)).not.toThrow();
  });

  it('every code in the map is unique and recognised', () => {
    const values = Object.values(ErrorCode);
    expect(new Set(values).size).toBe(values.length);
    for (const value of values) expect(isErrorCode(value)).toBe(true);
    expect(isErrorCode('NOPE')).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });

  it('every code but INTERNAL has its own class', () => {
    const withClass = classes.map(([, code]) => code as string);
    expect([...withClass, ErrorCode.Internal].sort()).toEqual(Object.values(ErrorCode).sort());
  });
});

describe('toMcpAgentError', () => {
  it('passes mcp-agent errors through untouched', () => {
    const error = new ConfigError('bad');
    expect(toMcpAgentError(error)).toBe(error);
  });

  it('turns an Error into INTERNAL, keeping it as cause', () => {
    const original = new TypeError('x is not a function');
    const converted = toMcpAgentError(original);
    expect(converted.code).toBe('INTERNAL');
    expect(converted.message).toBe('x is not a function');
    expect(converted.cause).toBe(original);
  });

  it('turns an AbortError into CANCELLED and a TimeoutError into TIMEOUT', () => {
    const controller = new AbortController();
    controller.abort();
    expect(toMcpAgentError(controller.signal.reason).code).toBe('CANCELLED');
    expect(toMcpAgentError(new DOMException('took too long', 'TimeoutError')).code).toBe('TIMEOUT');
  });

  it('handles strings, null, undefined, objects and hostile values without throwing', () => {
    expect(toMcpAgentError('boom').message).toBe('boom');
    expect(toMcpAgentError(null).message).toBe('null was thrown');
    expect(toMcpAgentError(undefined).message).toBe('undefined was thrown');
    expect(toMcpAgentError({ message: 'shaped like an error' }).message).toBe(
      'shaped like an error',
    );
    expect(toMcpAgentError(42).message).toMatch(/non-error value.*number/);
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        has() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    expect(toMcpAgentError(hostile).code).toBe('INTERNAL');
    expect(toMcpAgentError(hostile).message).toMatch(/non-error value/);
    const getter = Object.defineProperty(new Error(), 'message', {
      get() {
        throw new Error('no');
      },
    });
    expect(toMcpAgentError(getter).message).toBe('An unknown error occurred.');
  });

  it('bounds a huge message', () => {
    const converted = toMcpAgentError(new Error('m'.repeat(100_000)));
    expect(converted.message.length).toBeLessThan(2_100);
    expect(converted.message).toMatch(/truncated\)$/);
  });
});

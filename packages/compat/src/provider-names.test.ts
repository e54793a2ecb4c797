import { describe, expect, it } from 'vitest';
import { failedTaskResult, ServerNotFoundError } from '@mcp-agent/core';
import { PROVIDER_ID_PATTERN, ProviderNotFoundError } from './index.js';
import { withConnectorNames } from './provider-names.js';

// Issue 31 renamed "provider" to "server" everywhere; code written against the old names keeps
// catching and checking what the library does under the new ones.
describe('the names a server had before it was called a server', () => {
  it('ProviderNotFoundError is ServerNotFoundError: instanceof and isInstance match what is thrown', () => {
    const thrown: unknown = new ServerNotFoundError('No server "x" is connected for this user.');
    expect(thrown instanceof ProviderNotFoundError).toBe(true);
    expect(ProviderNotFoundError.isInstance(thrown)).toBe(true);
    expect((thrown as ServerNotFoundError).code).toBe('SERVER_NOT_FOUND');
    expect(new ProviderNotFoundError('old call site')).toBeInstanceOf(ServerNotFoundError);
  });

  it('PROVIDER_ID_PATTERN is the server id pattern', () => {
    expect(['github', 'my_server-1'].map((id) => PROVIDER_ID_PATTERN.test(id))).toEqual([
      true,
      true,
    ]);
    expect(['GitHub', 'a.b', ''].map((id) => PROVIDER_ID_PATTERN.test(id))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("a task's usage says connectors / connector beside servers / server, the same figures", () => {
    const github = { server: 'github', calls: 2, errors: 1, durationMs: 30 };
    const base = failedTaskResult({ code: 'CANCELLED', message: 'stopped', details: {} });
    const result = withConnectorNames({ ...base, usage: { ...base.usage, servers: [github] } });
    expect(result.usage.servers).toEqual([{ ...github, connector: 'github' }]);
    expect(result.usage.connectors).toEqual([{ ...github, connector: 'github' }]);
    // A result without recorded usage gains no empty lists.
    expect(withConnectorNames(base).usage).toEqual(base.usage);
  });
});

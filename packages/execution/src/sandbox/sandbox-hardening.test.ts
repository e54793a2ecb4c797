// Issue 13's sandbox cases (catalogue section K): what a hostile tenant could do to the server
// process through run_code — its TypeScript, its tool arguments, the workers' environment.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IsolatedVmSandbox } from './isolated-vm-sandbox.js';
import { useTestSandbox } from './sandbox-test-helpers.js';

useTestSandbox();

describe('K. the server process is out of reach of sandbox code', () => {
  it('SBX-33 workers start with a minimal environment: no model key, database URL, vault key or token', async () => {
    const secrets: Record<string, string> = {
      ANTHROPIC_API_KEY: 'sk-ant-sbx33-secret',
      OPENAI_API_KEY: 'sk-sbx33-secret',
      MCP_AGENT_DATABASE_URL: 'postgres://agent:sbx33-password@db/agent',
      MCP_AGENT_SECRET_KEY: 'c2J4MzMtdmF1bHQta2V5LXNlY3JldC1zYngzMy12YXVsdA==',
      GITHUB_TOKEN: 'ghp_sbx33secret',
      NODE_OPTIONS: '--require /srv/app/sbx33-hook.js',
    };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets, { TZ: 'UTC' });
    const sandbox = new IsolatedVmSandbox({ workers: 1 });
    try {
      expect(await sandbox.run('return 1')).toMatchObject({ ok: true, value: 1 });
      const [pid] = sandbox.workerPids;
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      const names = environ
        .split('\0')
        .filter((entry) => entry !== '')
        .map((entry) => entry.slice(0, entry.indexOf('=')));
      for (const [name, value] of Object.entries(secrets)) {
        expect(names).not.toContain(name);
        expect(environ).not.toContain(value);
      }
      // Besides the kept settings, only the IPC channel that fork() itself adds.
      const allowed = [
        'TZ',
        'LANG',
        'LC_ALL',
        'NODE_CHANNEL_FD',
        'NODE_CHANNEL_SERIALIZATION_MODE',
      ];
      expect(
        names.every((name) => allowed.includes(name)),
        names.join(),
      ).toBe(true);
      expect(names).toContain('TZ');
    } finally {
      await sandbox.dispose();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

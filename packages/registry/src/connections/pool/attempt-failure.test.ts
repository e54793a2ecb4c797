import { describe, expect, it } from 'vitest';
import { meaningfulStderrLine } from './attempt-failure.js';

// The line of a crashed server's stderr that a user can act on, from real crash reports.
describe('meaningfulStderrLine', () => {
  it("Node's missing module: the error line, not the source, the stack or the banner", () => {
    const stderr = [
      'node:internal/modules/cjs/loader:1228',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module 'zod'",
      'Require stack:',
      '- /root/.npm/_npx/1234/node_modules/@acme/server/dist/index.js',
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
      '    at Module._load (node:internal/modules/cjs/loader:1051:27) {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: [',
      "    '/root/.npm/_npx/1234/node_modules/@acme/server/dist/index.js'",
      '  ]',
      '}',
      '',
      'Node.js v24.21.0',
    ].join('\n');
    expect(meaningfulStderrLine(stderr)).toBe("Error: Cannot find module 'zod'");
  });

  it("npm behind a TLS-inspecting proxy: why the request failed, not npm's error code", () => {
    const stderr = [
      'npm error code SELF_SIGNED_CERT_IN_CHAIN',
      'npm error errno SELF_SIGNED_CERT_IN_CHAIN',
      'npm error request to https://registry.npmjs.org/@acme%2fserver failed, reason: self-signed certificate in certificate chain',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/debug-0.log',
    ].join('\n');
    expect(meaningfulStderrLine(stderr)).toBe(
      'npm error request to https://registry.npmjs.org/@acme%2fserver failed, reason: self-signed certificate in certificate chain',
    );
  });

  it("Python's traceback: the exception line", () => {
    const stderr = [
      'Traceback (most recent call last):',
      '  File "/srv/server.py", line 3, in <module>',
      '    import httpx',
      "ModuleNotFoundError: No module named 'httpx'",
    ].join('\n');
    expect(meaningfulStderrLine(stderr)).toBe("ModuleNotFoundError: No module named 'httpx'");
  });

  it('ordinary chatter is shown when nothing reads as trouble; nothing is undefined; long lines cut', () => {
    expect(meaningfulStderrLine('Secure MCP Filesystem Server running on stdio\n')).toBe(
      'Secure MCP Filesystem Server running on stdio',
    );
    expect(meaningfulStderrLine('\n\nNode.js v24.21.0\n')).toBeUndefined();
    expect(meaningfulStderrLine(`Error: ${'x'.repeat(400)}`)).toHaveLength(301);
  });
});

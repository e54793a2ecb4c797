import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built entries, loaded by a plain node process that records every module it resolves.
const dist = (entry: string) => fileURLToPath(new URL(`../dist/${entry}`, import.meta.url));

function sdksLoadedBy(entry: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        const resolved = next(specifier, context);
        const sdk = /node_modules\\/(openai|@anthropic-ai\\/sdk)\\//.exec(resolved.url);
        if (sdk) seen.add(sdk[1]);
        return resolved;
      },
    });
    await import(${JSON.stringify(dist(entry))});
    console.log(JSON.stringify([...seen].sort()));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as string[];
}

describe('entry points', () => {
  it('the root entry loads no model SDK; each adapter subpath loads only its own', () => {
    expect(sdksLoadedBy('index.js')).toEqual([]);
    expect(sdksLoadedBy('anthropic.js')).toEqual(['@anthropic-ai/sdk']);
    expect(sdksLoadedBy('openai.js')).toEqual(['openai']);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import { assertSupportedNode, MIN_NODE_MAJOR } from './supported-node.js';

describe('assertSupportedNode', () => {
  it('accepts this Node and any newer major', () => {
    expect(() => assertSupportedNode()).not.toThrow();
    expect(() => assertSupportedNode(`${MIN_NODE_MAJOR}.0.0`)).not.toThrow();
    expect(() => assertSupportedNode('26.1.0')).not.toThrow();
  });

  it('refuses an older one with one line naming both versions', () => {
    let thrown: unknown;
    try {
      assertSupportedNode('20.20.2');
    } catch (error) {
      thrown = error;
    }
    expect(ConfigError.isInstance(thrown)).toBe(true);
    const message = (thrown as ConfigError).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/needs Node\.js 24 or newer; this is Node\.js 20\.20\.2/);
    expect((thrown as ConfigError).details).toMatchObject({ reason: 'node_version' });
  });
});

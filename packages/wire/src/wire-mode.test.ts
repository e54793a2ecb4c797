import { describe, expect, it } from 'vitest';
import { ConfigError } from '@mcp-agent/core';
import { parseWireMode, WIRE_MODES, wireModeFrom } from './wire-mode.js';

describe('the wire mode (MCP_AGENT_WIRE)', () => {
  it('is lanes when unset or empty, and takes lanes or sdk', () => {
    expect(wireModeFrom({})).toBe('lanes');
    expect(wireModeFrom({ MCP_AGENT_WIRE: '' })).toBe('lanes');
    expect(wireModeFrom({ MCP_AGENT_WIRE: 'sdk' })).toBe('sdk');
    expect(wireModeFrom({ MCP_AGENT_WIRE: ' lanes ' })).toBe('lanes');
    expect(WIRE_MODES).toEqual(['lanes', 'sdk']);
  });

  it('refuses any other value with a ConfigError naming it and the allowed values', () => {
    const refused = () => wireModeFrom({ MCP_AGENT_WIRE: 'fast' });
    expect(refused).toThrow(ConfigError);
    expect(refused).toThrow('MCP_AGENT_WIRE is "fast"; allowed values: lanes, sdk');
    expect(() => parseWireMode('SDK', '--wire')).toThrow(/^--wire is "SDK"; allowed values/);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidArgumentsError } from './errors.js';
import { formatToolId, isServerId, parseToolId } from './tool-id.js';

describe('parseToolId', () => {
  it('splits at the first dot, so tool names may contain dots', () => {
    expect(parseToolId('github.create_issue')).toEqual({
      id: 'github.create_issue',
      serverId: 'github',
      toolName: 'create_issue',
    });
    expect(parseToolId('files.v2.read')).toMatchObject({
      serverId: 'files',
      toolName: 'v2.read',
    });
    expect(parseToolId('a.B-c/d')).toMatchObject({ serverId: 'a', toolName: 'B-c/d' });
  });

  it.each([
    [42, /expected a string, got number/],
    ['nodot', /has no "\." between server and tool/],
    ['.tool', /server id "" must match/],
    ['GitHub.create', /server id "GitHub" must match/],
    ['git hub.create', /server id "git hub" must match/],
    ['-x.create', /server id "-x"/],
    [`${'a'.repeat(65)}.t`, /server id/],
    ['github.', /the tool name is empty/],
    ['github.has space', /whitespace or control/],
    ['github.zero\u200bwidth', /whitespace or control/],
    [`github.${'t'.repeat(129)}`, /129 characters long \(at most 128\)/],
  ])('rejects %j with a clear message', (input, message) => {
    let thrown: unknown;
    try {
      parseToolId(input);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentsError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).toMatch(/Expected "<serverId>\.<toolName>"/);
  });

  it('clips a huge id in the message', () => {
    expect(() => parseToolId('x'.repeat(10_000))).toThrow(/x{80}…/);
  });
});

describe('formatToolId and isServerId', () => {
  it('formats and validates', () => {
    expect(formatToolId('memory', 'create_entities')).toBe('memory.create_entities');
    expect(() => formatToolId('mem.ory', 'x')).toThrow(InvalidArgumentsError);
    expect(isServerId('my_server-1')).toBe(true);
    expect(isServerId('My')).toBe(false);
    expect(isServerId('a.b')).toBe(false);
    expect(isServerId(undefined)).toBe(false);
  });
});

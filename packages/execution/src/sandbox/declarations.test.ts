import { stripTypeScriptTypes } from 'node:module';
import { describe, expect, it } from 'vitest';
import { generateDeclarations } from './declarations.js';
import { nameTools } from './tool-identifiers.js';

// A declaration file parses when "declare" lines strip to nothing (Node's own TS stripper).
function parses(declarations: string): boolean {
  try {
    stripTypeScriptTypes(declarations, { mode: 'strip' });
    return true;
  } catch {
    return false;
  }
}

describe('generateDeclarations', () => {
  it('declares tools by server with typed arguments and doc comments', () => {
    const text = generateDeclarations([
      {
        server: 'github',
        name: 'create_issue',
        description: 'Create an issue',
        inputSchema: {
          type: 'object',
          properties: {
            repo: { type: 'string', description: 'owner/name' },
            labels: { type: 'array', items: { type: 'string' } },
            state: { enum: ['open', 'closed'] },
          },
          required: ['repo'],
        },
        outputSchema: { type: 'object', properties: { number: { type: 'integer' } } },
      },
    ]);
    expect(text).toBe(
      [
        'declare const tools: {',
        '  github: {',
        '    /** github.create_issue: Create an issue */',
        '    create_issue(args: { /** owner/name */ repo: string; labels?: Array<string>; state?: "open" | "closed" }): Promise<{ number?: number }>;',
        '  };',
        '};',
      ].join('\n'),
    );
    expect(parses(text)).toBe(true);
  });

  it('BRG-01 hostile tool names become unique safe identifiers and the output still parses', () => {
    const names = [
      'a"b',
      '__proto__',
      'constructor',
      'then',
      'x'.repeat(200),
      'has space',
      'café',
      'send_email',
      'Send_Email',
      '1st',
      '',
    ];
    const tools = names.map((name) => ({ server: 'my-server', name }));
    const named = nameTools(tools);
    const ids = named.map((t) => t.toolIdentifier);
    expect(new Set(ids.map((id) => id.toLowerCase())).size).toBe(names.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z_$][\w$]{0,70}$/);
    expect(named[0]?.serverIdentifier).toBe('my_server');
    expect(ids.slice(0, 4)).toEqual(['a_b', '___proto__', '_constructor', '_then']);
    expect(parses(generateDeclarations(tools))).toBe(true);
  });

  it('BRG-02 descriptions and schemas with */, backticks, ${}, </script>, NUL and zero-width characters cannot break out', () => {
    const hostile =
      '*/ declare const pwned: 1; /* `${process.exit()}` </script>\u0000\u200b\u202e end';
    const text = generateDeclarations([
      {
        server: 'evil',
        name: 'tool',
        description: hostile,
        inputSchema: {
          type: 'object',
          properties: {
            '*/ x': { type: 'string', description: hostile },
            'a"b': { type: 'number' },
          },
        },
      },
    ]);
    expect(parses(text)).toBe(true);
    for (const invisible of ['\u0000', '\u200b', '\u202e']) expect(text).not.toContain(invisible);
    // Everything is declaration or comment: stripping the types leaves nothing that could run.
    expect(stripTypeScriptTypes(text, { mode: 'strip' }).trim()).toBe('');
    expect(text).toContain('"*/ x"?: string');
  });

  it('BRG-01 a name that is its own identifier keeps it, and other spellings stay reachable by their exact names', () => {
    const named = nameTools([
      { server: 'my-server', name: 'get-item' },
      { server: 'my-server', name: 'get_item' },
      { server: 'my-server', name: 'then' },
      { server: 'my-server', name: 'delete' },
      { server: 'my_server', name: 'x' },
    ]);
    expect(
      named.map((t) => [t.serverIdentifier, t.toolIdentifier, t.serverByName, t.toolByName]),
    ).toEqual([
      // get_item is another tool's own name: the hyphenated one takes get_item_2.
      ['my_server_2', 'get_item_2', true, true],
      ['my_server_2', 'get_item', true, false],
      // then would make the namespace a thenable: it has no second key.
      ['my_server_2', '_then', true, false],
      ['my_server_2', '_delete', true, true],
      ['my_server', 'x', false, false],
    ]);
  });

  it('BRG-01 the declarations say how to reach a hyphenated server and tool by their exact names', () => {
    const text = generateDeclarations([
      { server: 'my-server', name: 'get-item', description: 'Get an item' },
      { server: 'memory', name: 'read_graph', description: 'Read the graph' },
    ]);
    expect(text).toBe(
      [
        'declare const tools: {',
        '  my_server: {',
        '    /** my-server.get-item (also tools["my-server"]["get-item"]): Get an item */',
        '    get_item(args: Record<string, unknown>): Promise<unknown>;',
        '  };',
        '  memory: {',
        '    /** memory.read_graph: Read the graph */',
        '    read_graph(args: Record<string, unknown>): Promise<unknown>;',
        '  };',
        '};',
      ].join('\n'),
    );
    expect(parses(text)).toBe(true);
  });
});

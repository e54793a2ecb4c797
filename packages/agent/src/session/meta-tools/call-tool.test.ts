import { describe, expect, it } from 'vitest';
import { parseMetaToolInput } from '../meta-tool.js';
import type { SessionState } from '../session-state.js';
import { callTool } from './call-tool.js';

// call_tool's input is checked by hand on the per-call path: what the check takes must be what
// the schema takes as it is, and everything else must still reach the schema and its wording.
const tool = callTool({} as SessionState);

const inputs: [string, unknown][] = [
  ['the common shape', { tool_id: 'github.list_issues', arguments: { repo: 'a/b' } }],
  ['empty arguments', { tool_id: 'x.y', arguments: {} }],
  ['a 300-character id', { tool_id: 'a'.repeat(300), arguments: {} }],
  ['a 301-character id', { tool_id: 'a'.repeat(301), arguments: {} }],
  ['an empty id', { tool_id: '', arguments: {} }],
  ['a number id', { tool_id: 7, arguments: {} }],
  ['no arguments', { tool_id: 'x.y' }],
  ['null arguments', { tool_id: 'x.y', arguments: null }],
  ['array arguments', { tool_id: 'x.y', arguments: [1] }],
  ['string arguments', { tool_id: 'x.y', arguments: '{}' }],
  ['an extra key', { tool_id: 'x.y', arguments: {}, extra: 1 }],
  ['an extra key instead of one', { tool_id: 'x.y', extra: {} }],
  ['an explicit undefined', { tool_id: 'x.y', arguments: {}, more: undefined }],
  ['an array', ['x.y', {}]],
  ['null', null],
  ['undefined', undefined],
  ['a string', 'x.y'],
];

describe('call_tool input', () => {
  it.each(inputs)('%s: the hand check agrees with the schema', (_name, input) => {
    const schema = tool.input.safeParse(input ?? {});
    const accepted = tool.accepts?.(input) === true;
    // Taken by hand only when the schema takes it, and then as the schema would return it.
    if (accepted) expect(schema.success && schema.data).toEqual(input);
    const parsed = parseMetaToolInput(tool, input);
    expect(parsed.ok).toBe(schema.success);
    if (parsed.ok && schema.success) expect(parsed.value).toEqual(schema.data);
  });

  it('takes the common shapes by hand and leaves every refusal to the schema', () => {
    const accepted = inputs.filter(([, input]) => tool.accepts?.(input) === true).map(([n]) => n);
    expect(accepted).toEqual(['the common shape', 'empty arguments', 'a 300-character id']);
    const refused = parseMetaToolInput(tool, { tool_id: 'x.y', arguments: [1] });
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(/^Invalid input for call_tool: arguments: /) as string,
    });
  });
});

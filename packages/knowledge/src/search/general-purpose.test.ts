import { describe, expect, it } from 'vitest';
import { takesProgram } from './general-purpose.js';

describe('takesProgram', () => {
  it('knows a tool that takes SQL, a command, code or an expression by its parameter', () => {
    for (const name of [
      'sql',
      'sqlQuery',
      'sql_query',
      'command',
      'shell_command',
      'code',
      'script',
      'expression',
      'codeSnippet',
    ])
      expect(takesProgram([{ name }]), name).toBe(true);
    // A plain "query" takes a program only when its description says so.
    expect(takesProgram([{ name: 'query', description: 'The SQL query to run' }])).toBe(true);
    expect(takesProgram([{ name: 'input', description: 'A shell command to execute' }])).toBe(true);
  });

  it('does not take a value or a search box for a program', () => {
    for (const name of ['country_code', 'svg_code', 'commandId', 'description', 'path'])
      expect(takesProgram([{ name }]), name).toBe(false);
    expect(takesProgram([{ name: 'query', description: 'Words to search the notes for' }])).toBe(
      false,
    );
    expect(takesProgram([])).toBe(false);
  });
});

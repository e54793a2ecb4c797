import { describe, expect, it } from 'vitest';
import { searchParameter } from '../tool-document.js';
import { languageVocabulary, parameterText } from './parameter-text.js';
import type { SearchDocument } from './search-document.js';
import { ToolSearchIndex } from './tool-search-index.js';

const doc = (
  server: string,
  name: string,
  description: string,
  parameters: SearchDocument['parameters'] = [],
): SearchDocument => ({ id: `${server}.${name}`, server, name, description, parameters });

describe('parameterText', () => {
  it('reads an enum’s strings as words the tool accepts', () => {
    const language = searchParameter('language', {
      type: 'string',
      enum: ['python', 'ruby', 3, null],
    });
    expect(language).toEqual({ name: 'language', values: ['python', 'ruby'] });
    expect(searchParameter('count', { type: 'number', description: 'How many' })).toEqual({
      name: 'count',
      description: 'How many',
    });
    const index = new ToolSearchIndex();
    index.setServer('runner', [doc('runner', 'run', 'Run a snippet.', [language])]);
    index.setServer('files', [doc('files', 'read', 'Read a text file from disk.')]);
    expect(index.search('try this in ruby')[0]?.id).toBe('runner.run');
  });

  it('gives a parameter that takes SQL the language’s words: tables, rows, columns', () => {
    const sql = { name: 'sql', description: 'Statement to execute' };
    expect(languageVocabulary([sql])).toContain('table');
    expect(languageVocabulary([{ name: 'path' }])).toBe('');
    expect(parameterText(doc('db', 'execute', 'Execute against the database.', [sql]))).toContain(
      'column',
    );
    const index = new ToolSearchIndex();
    index.setServer('db', [doc('db', 'execute', 'Execute against the database.', [sql])]);
    index.setServer('sheets', [doc('sheets', 'format', 'Format cells of a sheet.')]);
    index.setServer('tasks', [doc('tasks', 'add_task', 'Add a task to the list.')]);
    expect(index.search('insert a row into the suppliers table')[0]?.id).toBe('db.execute');
  });
});

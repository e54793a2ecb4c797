import type { SearchDocument, SearchParameter } from './search-document.js';

// The words of a query language, for a tool whose parameter takes one. A tool that runs SQL
// serves requests about tables, rows and columns whatever its own text says: these are the
// language's statements, clauses and the nouns of its data model (from the SQL standard's
// keywords), never words of any benchmark's requests. Kept short and lexical: the point is to
// reach the tool from how people talk about data in tables, not to describe SQL.
const LANGUAGES: readonly { readonly pattern: RegExp; readonly words: string }[] = [
  {
    // A parameter named or described as SQL ("sql", "SQL query to run", "sqlQuery").
    pattern: /(?:^|[^a-z])sql(?:$|[^a-z])|sql(?=[A-Z_])/i,
    words:
      'sql query database table tables row rows column columns record records select insert ' +
      'update delete create alter drop join where group count sum average total statement',
  },
];

/**
 * The languages' vocabulary for the parameters of `doc` that take one (a string parameter
 * named or described as SQL), as one text; empty when none does.
 */
export function languageVocabulary(parameters: readonly SearchParameter[]): string {
  const words = new Set<string>();
  for (const language of LANGUAGES) {
    if (parameters.some((p) => language.pattern.test(`${p.name} ${p.description ?? ''}`)))
      words.add(language.words);
  }
  return [...words].join(' ');
}

/**
 * What search reads of a tool's parameters: each one's name, description and the values it
 * accepts (an enum's strings: "ruby" for a code runner's language), then the vocabulary of the
 * query languages they take ({@link languageVocabulary}).
 */
export function parameterText(doc: SearchDocument): string {
  const own = doc.parameters.map(
    (p) => `${p.name} ${p.description ?? ''} ${(p.values ?? []).join(' ')}`,
  );
  return [...own, languageVocabulary(doc.parameters)].join(' ');
}

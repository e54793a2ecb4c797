import { cedictGloss, hasHan } from './chinese-gloss.js';
import { parameterText } from './parameter-text.js';
import type { SearchDocument } from './search-document.js';
import { expandQuery } from './thesaurus.js';
import { tokenize } from './tokenizer.js';

/** A field of a tool that a query matched, and the index terms that matched it. */
export interface MatchedField {
  /** Which field of the tool (`gloss`: the English gloss of a Chinese description). */
  readonly field: 'name' | 'server' | 'description' | 'parameters' | 'gloss';
  /** Query terms found in the field (stemmed, as the index holds them). */
  readonly terms: readonly string[];
  /** Terms the thesaurus added to the query (`list` for `show`) found in the field. */
  readonly related: readonly string[];
  /** Query terms that matched a longer term as a prefix (`regist` → `registry`). */
  readonly prefixes: readonly string[];
}

/** Why a tool came up for a query: the fields each query term was found in. */
export interface MatchExplanation {
  /** The query's index terms, after stop words and stemming. */
  readonly queryTerms: readonly string[];
  /** The query named the tool itself, by name or id. */
  readonly exact: boolean;
  /** The fields that matched, each with its terms. */
  readonly fields: readonly MatchedField[];
}

// As the index: query terms this long also match as prefixes.
const PREFIX_MIN_LENGTH = 5;

/**
 * Explains a hit in the words of the index: which of the query's terms (after stop words and
 * stemming), the thesaurus's related terms and prefix matches occur in which field of the tool.
 * It does not recompute the score; the ranking is BM25F over these same fields (see the README).
 */
export function explainMatch(query: string, doc: SearchDocument): MatchExplanation {
  const queryTerms = [...new Set(tokenize(query))];
  const related = expandQuery(queryTerms);
  const fields: [MatchedField['field'], string][] = [
    ['name', doc.name],
    ['server', doc.server],
    ['description', doc.description],
    ['parameters', parameterText(doc)],
  ];
  // The English gloss of a Chinese description, as the index holds it, when the optional
  // dictionary is there (it is loaded once per process, and only for Chinese text).
  if (hasHan(doc.description)) {
    const gloss = cedictGloss();
    if ('gloss' in gloss) fields.push(['gloss', gloss.gloss(doc.description)]);
  }
  const matched: MatchedField[] = [];
  for (const [field, text] of fields) {
    const terms = new Set(tokenize(text));
    const direct = queryTerms.filter((term) => terms.has(term));
    const viaThesaurus = related.filter((term) => terms.has(term));
    const prefixes = queryTerms.filter(
      (term) =>
        term.length >= PREFIX_MIN_LENGTH &&
        !terms.has(term) &&
        [...terms].some(
          (candidate) => candidate.length > term.length && candidate.startsWith(term),
        ),
    );
    if (direct.length + viaThesaurus.length + prefixes.length > 0)
      matched.push({ field, terms: direct, related: viaThesaurus, prefixes });
  }
  const asked = query.trim().toLowerCase();
  return {
    queryTerms,
    exact: asked === doc.name.toLowerCase() || asked === doc.id.toLowerCase(),
    fields: matched,
  };
}

import { stemmer } from 'stemmer';
import { hasUnspacedScript, segmentUnspaced } from './script-segmenter.js';
import { STOP_WORDS } from './stop-words.js';

// Splits identifiers as well as prose: snake_case, kebab-case, dotted.names, path/like and
// camelCase (including acronyms: "HTTPServer" → "HTTP Server") and letter-digit boundaries.
const CAMEL_LOWER_UPPER = /(\p{Ll})(\p{Lu})/gu;
const CAMEL_ACRONYM = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
const LETTER_THEN_DIGIT = /(\p{L})(\p{N})/gu;
const DIGIT_THEN_LETTER = /(\p{N})(\p{L})/gu;
// Marks stay inside words: Thai, Hindi and decomposed accents write vowels and tones with them.
const NON_WORD = /[^\p{L}\p{M}\p{N}]+/u;

/**
 * Raw words of `text`, identifiers split, lowercased; no stemming, stop words kept. Text in
 * scripts written without spaces (Chinese, Japanese, Thai…) is segmented into words, and
 * mixed text splits where the script changes ("GitHub仓库" → "github", "仓库").
 */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(CAMEL_LOWER_UPPER, '$1 $2')
    .replace(CAMEL_ACRONYM, '$1 $2')
    .replace(LETTER_THEN_DIGIT, '$1 $2')
    .replace(DIGIT_THEN_LETTER, '$1 $2');
  const words = spaced
    .toLowerCase()
    .split(NON_WORD)
    .filter((word) => word !== '');
  if (!hasUnspacedScript(text)) return words;
  return words.flatMap((word) =>
    hasUnspacedScript(word) ? segmentUnspaced(word, (w) => STOP_WORDS.has(w)) : [word],
  );
}

const stemCache = new Map<string, string>();

/** The index form of one word: `null` for a stop word, else its Porter stem. */
export function normalizeTerm(word: string): string | null {
  if (STOP_WORDS.has(word) || word.length > 40) return null;
  let stem = stemCache.get(word);
  if (stem === undefined) {
    // Numbers, very short words and words of other scripts than English's are kept as they
    // are; an English stemmer would only blur them.
    stem =
      word.length <= 3 || /^\p{N}+$/u.test(word) || hasUnspacedScript(word) ? word : stemmer(word);
    if (stemCache.size < 200_000) stemCache.set(word, stem);
  }
  return stem;
}

/** Index terms of `text`: split, lowercased, stop words dropped, stemmed. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    const term = normalizeTerm(word);
    if (term !== null) terms.push(term);
  }
  return terms;
}

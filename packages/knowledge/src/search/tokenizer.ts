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
  // Most tool text is ASCII: one pass over its character codes finds the same boundaries as the
  // Unicode expressions below, without building four spaced copies of the text (index build).
  if (!NON_ASCII.test(text)) return splitAscii(text);
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

const NON_ASCII = /[^\p{ASCII}]/u;

// `splitWords` for ASCII text. A boundary falls at every character other than a letter or digit,
// and between a lower- and an upper-case letter ("createIssue"), before the last capital of an
// acronym followed by a lower-case letter ("HTTPServer"), and between letters and digits: what
// the four expressions above mark with spaces, as index-build.test.ts checks on the bench data.
function splitAscii(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let start = -1;
  let previous = OTHER;
  for (let i = 0; i < text.length; i++) {
    const kind = asciiKind(text.charCodeAt(i));
    if (kind === OTHER) {
      if (start >= 0) words.push(lower.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (
      (previous === LOWER && kind === UPPER) ||
      (previous === UPPER && kind === UPPER && asciiKind(text.charCodeAt(i + 1)) === LOWER) ||
      (previous === DIGIT) !== (kind === DIGIT)
    ) {
      words.push(lower.slice(start, i));
      start = i;
    }
    previous = kind;
  }
  if (start >= 0) words.push(lower.slice(start));
  return words;
}

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function asciiKind(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  return OTHER;
}

// Word → its index form (null: a stop word or too long), for the words met so far.
const termCache = new Map<string, string | null>();

/** The index form of one word: `null` for a stop word, else its Porter stem. */
export function normalizeTerm(word: string): string | null {
  let term = termCache.get(word);
  if (term === undefined) {
    // Numbers, very short words and words of other scripts than English's are kept as they
    // are; an English stemmer would only blur them.
    term =
      STOP_WORDS.has(word) || word.length > 40
        ? null
        : word.length <= 3 || /^\p{N}+$/u.test(word) || hasUnspacedScript(word)
          ? word
          : stemmer(word);
    if (termCache.size < 200_000) termCache.set(word, term);
  }
  return term;
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

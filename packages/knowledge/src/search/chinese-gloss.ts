import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { STOP_WORDS } from './stop-words.js';

/** English words for text written in another language: what a gloss field of the index holds. */
export interface TextGloss {
  /** English glosses of `text`'s foreign words, space-separated; '' when it has none. */
  gloss(text: string): string;
}

/** Where a gloss comes from: loaded on first need, or why it cannot be. */
export type GlossSource = () => TextGloss | { readonly unavailable: string };

// The optional data package (CC BY-SA 4.0, never bundled with this MIT package): looked up by a
// name the bundlers and type checker do not follow, so that its absence is a warning, not a
// build or install error.
const DATA_PACKAGE = '@mcp-agent/cedict-data';
// The longest dictionary word tried at each position (CC-CEDICT has idioms of 4–8 characters).
const MAX_WORD = 8;
const HAN = /\p{Script=Han}/u;
const HAN_RUN = /\p{Script=Han}+/gu;

/** Whether `text` has Chinese characters (Han script: Chinese, and Japanese kanji). */
export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/**
 * A gloss from a CC-CEDICT file: each run of Han characters is cut by greedy longest match
 * against the dictionary, and each word gives its first English sense (without its notes in
 * brackets); characters no entry starts with are skipped, and so are Chinese stop words.
 */
export class CedictGloss implements TextGloss {
  readonly #senses: ReadonlyMap<string, string>;

  constructor(senses: ReadonlyMap<string, string>) {
    this.#senses = senses;
  }

  /** Reads a file in CC-CEDICT's format (`繁體 简体 [pin1 yin1] /sense/sense/`). */
  static parse(text: string): CedictGloss {
    const senses = new Map<string, string>();
    // Proper names (capitalised pinyin) give way to the common word written the same way.
    const proper = new Set<string>();
    for (const line of text.split('\n')) {
      if (line.startsWith('#')) continue;
      const match = /^(\S+) (\S+) \[([^\]]*)\] \/(.+)\/\s*$/u.exec(line);
      if (match === null) continue;
      const [, traditional, simplified, pinyin, all] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      const sense = firstSense(all.split('/'));
      if (sense === undefined) continue;
      const isProper = /^[A-Z]/u.test(pinyin);
      for (const word of new Set([simplified, traditional])) {
        if (senses.has(word) && !(proper.has(word) && !isProper)) continue;
        senses.set(word, sense);
        if (isProper) proper.add(word);
        else proper.delete(word);
      }
    }
    return new CedictGloss(senses);
  }

  gloss(text: string): string {
    const words: string[] = [];
    for (const [run] of text.matchAll(HAN_RUN)) {
      let at = 0;
      while (at < run.length) {
        let length = Math.min(MAX_WORD, run.length - at);
        while (length > 1 && !this.#senses.has(run.slice(at, at + length))) length--;
        const word = run.slice(at, at + length);
        const sense = this.#senses.get(word);
        if (sense !== undefined && !STOP_WORDS.has(word)) words.push(sense);
        at += length;
      }
    }
    return words.join(' ');
  }
}

// The first sense that says what the word means, not where to look ("variant of 說", "see 的",
// "surname Wang", "CL:個"), with its bracketed notes and pinyin references dropped.
function firstSense(senses: readonly string[]): string | undefined {
  for (const raw of senses) {
    if (
      /^(?:(?:old |archaic |Japanese )?variant of|see |surname |CL:|abbr\. for|also written)/iu.test(
        raw,
      )
    )
      continue;
    const sense = raw
      .replace(/\([^)]*\)|\[[^\]]*\]|[\p{Script=Han}|]+/gu, ' ')
      .replace(/\s+/gu, ' ')
      .trim();
    if (sense !== '') return sense;
  }
  return undefined;
}

let loaded: TextGloss | { readonly unavailable: string } | undefined;

/**
 * CC-CEDICT from `@mcp-agent/cedict-data`, read once per process on first need (~9 MB of text,
 * a map of about 120,000 words, held for the life of the process: it does not grow), or why it
 * cannot be.
 */
export const cedictGloss: GlossSource = () => {
  if (loaded !== undefined) return loaded;
  try {
    const data = createRequire(import.meta.url)(DATA_PACKAGE) as { cedictPath: string };
    loaded = CedictGloss.parse(readFileSync(data.cedictPath, 'utf8'));
  } catch (error) {
    loaded = {
      unavailable: `${DATA_PACKAGE} could not be loaded (${(error as Error).message.split('\n')[0]})`,
    };
  }
  return loaded;
};

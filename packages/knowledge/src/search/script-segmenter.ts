// Scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar), plus
// Hangul, whose spaced words carry their particles ("저장소를" is "저장소" + "를").
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const HAN_CHARACTER = /^\p{Script=Han}$/u;
const HANGUL_WORD = /^\p{Script=Hangul}+$/u;
const CHINESE_OR_JAPANESE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

// ICU's word segmentation: dictionaries for Chinese, Japanese, Thai, Lao, Khmer and Burmese,
// and a split wherever the script changes. Absent only on Node builds without full ICU. Made on
// first use: loading it costs ~0.1 s, which English-only catalogs never pay.
let segmenter: Intl.Segmenter | null | undefined;
function wordSegmenter(): Intl.Segmenter | undefined {
  segmenter ??=
    typeof Intl.Segmenter === 'function'
      ? new Intl.Segmenter(undefined, { granularity: 'word' })
      : null;
  return segmenter ?? undefined;
}

/** True when `text` holds a script that {@link segmentUnspaced} must split. */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED.test(text);
}

/**
 * The words of one space-free run of text as a reader of its language would split it:
 * dictionary words from `Intl.Segmenter`; for Han characters the dictionary does not know
 * (it returns them one by one: "微|博|热|搜"), each pair of neighbours as well ("微博", "热搜"),
 * so a query and a description split the same unknown word the same way; Hangul words as
 * syllable pairs, so a word matches with or without its particle. `isStopWord` keeps pairs
 * from being formed with function characters such as "的".
 */
export function segmentUnspaced(text: string, isStopWord: (word: string) => boolean): string[] {
  const words: string[] = [];
  const icu = wordSegmenter();
  const segments =
    icu === undefined
      ? fallbackSegments(text)
      : [...icu.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
  let previousSingle: string | undefined;
  for (const segment of segments) {
    if (HANGUL_WORD.test(segment)) {
      previousSingle = undefined;
      words.push(...characterPairs(segment));
      continue;
    }
    words.push(segment);
    const single = HAN_CHARACTER.test(segment) && !isStopWord(segment) ? segment : undefined;
    if (single !== undefined && previousSingle !== undefined) words.push(previousSingle + single);
    previousSingle = single;
  }
  return words;
}

// Without ICU: runs of one script, Chinese and Japanese as character pairs.
function fallbackSegments(text: string): string[] {
  const runs = text.match(
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu,
  );
  return (runs ?? []).flatMap((run) =>
    CHINESE_OR_JAPANESE.test(run) ? characterPairs(run) : [run],
  );
}

// "저장소를" → "저장", "장소", "소를"; one character stays itself.
function characterPairs(word: string): string[] {
  const characters = [...word];
  if (characters.length < 2) return [word];
  const pairs: string[] = [];
  for (let i = 1; i < characters.length; i++) pairs.push(characters[i - 1]! + characters[i]!);
  return pairs;
}

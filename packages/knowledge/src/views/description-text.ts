/** What a cut deep view tells its reader to do to read the rest. */
export const READ_THE_REST =
  'describe_tools with "full": true, or tools describe --full on the CLI, shows all';

/**
 * A server's text as it wrote it, character for character, up to `budget` characters; past it,
 * cut at a line or word break near the budget and marked with how much was cut and how to read
 * the rest. Never inside a surrogate pair.
 */
export function verbatimText(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const cut = breakBefore(text, budget, Math.floor(budget * 0.9));
  const rest = text.length - cut;
  return `${text.slice(0, cut)}… [${rest.toLocaleString('en-US')} more characters cut; ${READ_THE_REST}]`;
}

/**
 * A snippet for a ranked list: the original characters (outer whitespace aside), at most `max`
 * of them with the `…` that marks a cut. Never changes a character, never splits a surrogate pair.
 */
export function trimText(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = breakBefore(trimmed, max - 1, Math.floor((max - 1) * 0.8));
  return `${trimmed.slice(0, cut).trimEnd()}…`;
}

/**
 * The first line of a text as a snippet of at most `max` characters (`…` when more follows):
 * for one-line places such as an inventory header.
 */
export function firstLine(text: string, max: number): string {
  const trimmed = text.trim();
  const end = trimmed.search(/\r?\n/);
  if (end === -1) return trimText(trimmed, max);
  const line = trimText(trimmed.slice(0, end), max);
  return line.endsWith('…') ? line : `${line.trimEnd()}…`;
}

// The largest index ≤ `limit` just after whitespace, if one lies at or past `floor`; else
// `limit` itself, moved off the middle of a surrogate pair.
function breakBefore(text: string, limit: number, floor: number): number {
  for (let i = limit; i > floor; i--) if (/\s/.test(text[i - 1] as string)) return i;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

// A sentence ends at . ! or ? followed by a space and a capital, digit or quote, or by the end:
// "e.g. a file" and "v1.2" do not end one.
const SENTENCE_END = /[.!?](?=\s+[\p{Lu}\p{N}"'(]|\s*$)/u;

/**
 * The first sentence of a text's first line, at most `max` characters (`…` when cut): what a
 * browse of a server's whole list shows of each tool.
 */
export function firstSentence(text: string, max: number): string {
  const trimmed = text.trim();
  const lineEnd = trimmed.search(/\r?\n/);
  const line = lineEnd === -1 ? trimmed : trimmed.slice(0, lineEnd).trim();
  const end = line.search(SENTENCE_END);
  return trimText(end === -1 ? line : line.slice(0, end + 1), max);
}

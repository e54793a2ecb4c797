// The suite's answer form: every request ends with the same instruction, and a question's answer
// (or a refusal) is the reply's final `ANSWER:` line, compared exactly after normalising case,
// spacing, quotes, thousands separators and number words. Nothing is matched on words found
// anywhere in the reply: "6000 orders" is not 600, "28 days (29 in a leap year)" is not 29.

/** The refusal form: what a reply ends with when no connected tool can do the request. */
export const REFUSAL = 'not possible';

/** Appended to every task's request, the same for every task, so it tells nothing apart. */
export const ANSWER_RULE =
  '\n\n(When you finish: if this asks a question, end your reply with a last line `ANSWER: <the answer>`. ' +
  `If none of your tools can do what is asked, change nothing and end with the last line \`ANSWER: ${REFUSAL}\`.)`;

const NUMBER_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/** The text of the reply's final `ANSWER:` line, or undefined when its last line is not one. */
export function answerLine(reply: string): string | undefined {
  const lines = reply
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  // Markdown emphasis around the label or the value (`**ANSWER:** 600`) is not part of either.
  const match = /^[*_>\s]*answer[*_\s]*:[*\s]*(.*?)[*\s]*$/i.exec(lines.at(-1) ?? '');
  return match === null ? undefined : match[1];
}

/** Case, spacing, quotes, a closing full stop, thousands separators and small number words. */
export function normaliseAnswer(text: string): string {
  let value = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[*`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  // A closing full stop and quotes around the whole answer, in either order.
  for (let before = ''; before !== value;) {
    before = value;
    value = value.replace(/[.!]+$/, '').trim();
    if (/^(["']).*\1$/.test(value) && value.length >= 2) value = value.slice(1, -1).trim();
  }
  value = value.replace(/(\d)[,\u00a0 \u202f](?=\d{3}\b)/g, '$1').replace(/\b[a-z]+\b/g, (word) => {
    const index = NUMBER_WORDS.indexOf(word);
    return index === -1 ? word : String(index);
  });
  return value;
}

/**
 * What an answer should be: one of several accepted forms, or, for a request that names no
 * order, a list whose items (each one of its own accepted forms) may come in any order.
 */
export type ExpectedAnswer =
  { readonly oneOf: readonly string[] } | { readonly items: readonly (readonly string[])[] };

/** Why the reply's answer is not the expected one, or undefined when it is. */
export function answerFailure(
  reply: string,
  expected: ExpectedAnswer,
  rewrite: (text: string) => string = (text) => text,
): string | undefined {
  const line = answerLine(reply);
  if (line === undefined) return 'the reply has no final `ANSWER:` line';
  const given = normaliseAnswer(rewrite(line));
  if ('oneOf' in expected) {
    return expected.oneOf.some((form) => normaliseAnswer(form) === given)
      ? undefined
      : `ANSWER: ${JSON.stringify(line)} is not ${JSON.stringify(expected.oneOf[0])}`;
  }
  const parts = given
    .split(/\s*(?:,|;|\band\b|\n)\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const remaining = [...expected.items];
  for (const part of parts) {
    const index = remaining.findIndex((forms) => forms.some((f) => normaliseAnswer(f) === part));
    if (index === -1) return `ANSWER: ${JSON.stringify(line)} names ${JSON.stringify(part)}`;
    remaining.splice(index, 1);
  }
  return remaining.length === 0
    ? undefined
    : `ANSWER: ${JSON.stringify(line)} leaves out ${remaining.map((forms) => JSON.stringify(forms[0])).join(', ')}`;
}

/** True when the reply's final line is the refusal form. */
export function refuses(reply: string): boolean {
  const line = answerLine(reply);
  return line !== undefined && normaliseAnswer(line) === REFUSAL;
}

import { describe, expect, it } from 'vitest';
import { answerFailure, answerLine, normaliseAnswer, refuses } from './answer-line.js';

describe("the suite's answer line", () => {
  it('reads only the final ANSWER: line, whatever markup is around it', () => {
    expect(answerLine('There are 600.\nANSWER: 600')).toBe('600');
    expect(answerLine('**ANSWER:** 600\n\n')).toBe('600');
    expect(answerLine('answer: 600')).toBe('600');
    // Not the last line: no answer (a reply that goes on after it is not one).
    expect(answerLine('ANSWER: 600\nor maybe 6000')).toBeUndefined();
    expect(answerLine('The answer is 600.')).toBeUndefined();
  });

  it('normalises case, spacing, quotes, a full stop, thousands separators and small number words', () => {
    expect(normaliseAnswer('  "Fix  a Typo."  ')).toBe('fix a typo');
    expect(normaliseAnswer('43,800')).toBe('43800');
    expect(normaliseAnswer('43 800')).toBe('43800');
    expect(normaliseAnswer('Two')).toBe('2');
    expect(normaliseAnswer('It’s')).toBe("it's");
  });

  it('rejects a wrong answer that contains the right value (the hedges a word match let through)', () => {
    const count = { oneOf: ['600'] };
    expect(answerFailure('ANSWER: 600', count)).toBeUndefined();
    expect(answerFailure('ANSWER: 6,00', count)).toBeDefined();
    expect(answerFailure('ANSWER: 6000 orders', count)).toMatch(/is not "600"/);
    expect(
      answerFailure('ANSWER: 28 days (29 only in a leap year)', { oneOf: ['29'] }),
    ).toBeDefined();
    expect(answerFailure('ANSWER: Acme, ahead of Umbrella', { oneOf: ['Acme'] })).toBeDefined();
    expect(answerFailure('600 orders', count)).toBe('the reply has no final `ANSWER:` line');
  });

  it('accepts a list in any order, each item in one of its forms, and nothing more or less', () => {
    const files = { items: [['todo.md'], ['docs/guide.md', 'guide.md']] };
    expect(answerFailure('ANSWER: todo.md, docs/guide.md', files)).toBeUndefined();
    expect(answerFailure('ANSWER: guide.md and todo.md', files)).toBeUndefined();
    expect(answerFailure('ANSWER: todo.md', files)).toMatch(/leaves out "docs\/guide.md"/);
    expect(answerFailure('ANSWER: todo.md, guide.md, notes.md', files)).toMatch(/names "notes.md"/);
  });

  it('takes the declared refusal form in any casing, and nothing that merely mentions it', () => {
    expect(refuses('None of your connected servers can send mail.\nANSWER: Not possible.')).toBe(
      true,
    );
    expect(refuses('I couldn’t do it.\nANSWER: not possible')).toBe(true);
    // What a word list accepted: claims of success that say "can't" somewhere.
    expect(refuses("I can't believe it worked: the email is sent.\nANSWER: done")).toBe(false);
    expect(refuses('ANSWER: not possible — sent it anyway')).toBe(false);
    expect(refuses('It is not possible.')).toBe(false);
  });
});

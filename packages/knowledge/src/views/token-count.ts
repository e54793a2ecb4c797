import { countTokens as count } from 'gpt-tokenizer/encoding/o200k_base';

/** Tokens of `text` with the o200k_base tokenizer (gpt-tokenizer): the stated tokenizer. */
export function countTokens(text: string): number {
  return count(text);
}

import { describe, expect, it } from 'vitest';
import { clip } from './clip.js';

describe('clip', () => {
  it('keeps text within the limit whole and marks a cut', () => {
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('abcd', 3)).toBe('abc…');
    expect(clip('abcd', 2, '… (cut)')).toBe('ab… (cut)');
  });
});

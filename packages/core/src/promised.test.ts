import { describe, expect, it } from 'vitest';
import { promised } from './promised.js';

describe('promised', () => {
  it('hands on the promise run returns, the same one', async () => {
    const answer = Promise.resolve(42);
    expect(promised(() => answer)).toBe(answer);
    await expect(promised(() => Promise.reject(new Error('late')))).rejects.toThrow('late');
  });

  it('turns a synchronous throw into a rejection instead of throwing it', async () => {
    const thrown = new Error('at once');
    const answer = promised<number>(() => {
      throw thrown;
    });
    await expect(answer).rejects.toBe(thrown);
  });
});

import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  it('RDY-05 opens after 5 consecutive failures for 60 s, then lets one half-open probe through', () => {
    let now = 0;
    const breaker = new CircuitBreaker({}, () => now);
    for (let i = 0; i < 4; i++) {
      expect(breaker.tryAcquire()).toBe(true);
      breaker.recordFailure();
    }
    expect(breaker.state).toBe('closed');
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    now = 59_999;
    expect(breaker.tryAcquire()).toBe(false);
    now = 60_000;
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.recordFailure();
    expect(breaker.state).toBe('open');
    now = 120_000;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.recordSuccess();
    expect(breaker.state).toBe('closed');
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('a success resets the count', () => {
    const breaker = new CircuitBreaker({ threshold: 2 });
    breaker.recordFailure();
    breaker.recordSuccess();
    breaker.recordFailure();
    expect(breaker.state).toBe('closed');
  });
});

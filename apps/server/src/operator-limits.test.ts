import { describe, expect, it } from 'vitest';
import { LIMIT_FLAGS, readOperatorLimits } from './operator-limits.js';

describe('the operator limits of main.js', () => {
  it('reads each limit from its flag or its environment variable; the flag wins', () => {
    const limits = readOperatorLimits(
      { 'max-steps': '30', 'max-sessions': '4', 'event-store-total-bytes': '64_000_000' },
      {
        MCP_AGENT_MAX_STEPS: '99',
        MCP_AGENT_MAX_RUNNING_TASKS: '2',
        MCP_AGENT_SESSION_IDLE_MS: '600000',
        MCP_AGENT_MAX_BODY_BYTES: '',
      },
    );
    expect(limits).toEqual({
      agent: { maxRunningTasksPerUser: 2, budgetCeilings: { maxSteps: 30 } },
      server: {
        maxSessionsPerUser: 4,
        sessionIdleMs: 600_000,
        eventStore: { maxBytesTotal: 64_000_000 },
      },
    });
  });

  it('sets nothing when nothing is given, so every documented default holds', () => {
    expect(readOperatorLimits({}, {})).toEqual({ agent: { budgetCeilings: {} }, server: {} });
  });

  it('refuses a value that is not a positive whole number, naming the flag and the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'ten', '1e400'])
      expect(() => readOperatorLimits({ 'max-wall-time-ms': bad }, {})).toThrow(
        /--max-wall-time-ms \(MCP_AGENT_MAX_WALL_TIME_MS\) must be a positive whole number/,
      );
  });

  it('every flag has its own name and variable', () => {
    expect(new Set(LIMIT_FLAGS.map((f) => f.flag)).size).toBe(LIMIT_FLAGS.length);
    expect(new Set(LIMIT_FLAGS.map((f) => f.env)).size).toBe(LIMIT_FLAGS.length);
  });
});

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
      tasks: {},
    });
  });

  it("LOAD-10 reads the pool's idle timeout, the operator's setting of how long an unused connection lives", () => {
    expect(readOperatorLimits({}, { MCP_AGENT_CONNECTION_IDLE_MS: '300000' })).toMatchObject({
      pool: { idleMs: 300_000 },
    });
    expect(readOperatorLimits({ 'connection-idle-ms': '60000' }, {}).pool).toEqual({
      idleMs: 60_000,
    });
    expect(readOperatorLimits({}, {}).pool).toBeUndefined();
    expect(readOperatorLimits({ 'search-idle-ms': '120000' }, {}).knowledge).toEqual({
      idleMs: 120_000,
    });
    expect(readOperatorLimits({}, { MCP_AGENT_SEARCH_IDLE_MS: '5000' }).knowledge).toEqual({
      idleMs: 5_000,
    });
    expect(() => readOperatorLimits({ 'connection-idle-ms': '0' }, {})).toThrow(
      /--connection-idle-ms \(MCP_AGENT_CONNECTION_IDLE_MS\) must be a positive whole number/,
    );
  });

  it('LOAD-03 reads how long an idle keep-alive connection stays open', () => {
    expect(readOperatorLimits({ 'keep-alive-ms': '620000' }, {}).server).toEqual({
      keepAliveTimeoutMs: 620_000,
    });
    expect(readOperatorLimits({}, { MCP_AGENT_KEEP_ALIVE_MS: '90000' }).server).toEqual({
      keepAliveTimeoutMs: 90_000,
    });
    expect(() => readOperatorLimits({ 'keep-alive-ms': '-1' }, {})).toThrow(
      /--keep-alive-ms \(MCP_AGENT_KEEP_ALIVE_MS\) must be a positive whole number/,
    );
  });

  it('reads how tasks are leased and kept, and the tool-call rate', () => {
    expect(
      readOperatorLimits(
        { 'task-lease-ms': '5000', 'tool-calls-per-second': '20' },
        { MCP_AGENT_TASK_RETENTION_MS: '3600000', MCP_AGENT_TASKS_KEPT_PER_USER: '50' },
      ),
    ).toMatchObject({
      tasks: { leaseMs: 5_000, retention: { maxAgeMs: 3_600_000, maxPerUser: 50 } },
      toolCalls: { ratePerSecond: 20, burst: 20 },
    });
    expect(() => readOperatorLimits({ 'tool-call-burst': '5' }, {})).toThrow(
      /--tool-call-burst .* needs --tool-calls-per-second/,
    );
  });

  it('sets nothing when nothing is given, so every documented default holds', () => {
    expect(readOperatorLimits({}, {})).toEqual({
      agent: { budgetCeilings: {} },
      server: {},
      tasks: {},
    });
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

export { createManualClock, type ManualClock } from './manual-clock.js';
export { createMemoryLogger, type MemoryLogger } from './memory-logger.js';
export { latencyStats, percentile, round3, type LatencyStats } from './latency-stats.js';

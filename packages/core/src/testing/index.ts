export { createManualClock, type ManualClock } from './manual-clock.js';
export { createMemoryLogger, type MemoryLogger } from './memory-logger.js';

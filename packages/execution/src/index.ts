export { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits } from './envelope/envelope-limits.js';
export {
  MemoryObservationStore,
  type MemoryObservationStoreOptions,
  type ObservationPage,
  type ObservationStore,
} from './envelope/observation-store.js';
export {
  processObservation,
  type Observation,
  type ProcessObservationOptions,
} from './envelope/process-observation.js';
export { describeBlob, truncateString } from './envelope/truncate-string.js';

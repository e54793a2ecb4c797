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
export { IsolatedVmSandbox, type IsolatedVmSandboxOptions } from './sandbox/isolated-vm-sandbox.js';
export { parseUntrusted } from './sandbox/parse-untrusted.js';
export {
  DEFAULT_SANDBOX_LIMITS,
  type Sandbox,
  type SandboxFailure,
  type SandboxLimits,
  type SandboxResult,
  type SandboxRunOptions,
  type SandboxTool,
  type SandboxToolReply,
} from './sandbox/sandbox.js';
export { nameTools, type NamedTool } from './sandbox/tool-identifiers.js';
export { generateDeclarations, type DeclaredTool } from './sandbox/declarations.js';

export { describeBlob } from './envelope/describe-blob.js';
export {
  BYTES_PER_TOKEN,
  DEFAULT_ENVELOPE_LIMITS,
  DEFAULT_IMAGE_LIMITS,
  estimateTokens,
  type EnvelopeLimits,
  type ImageLimits,
} from './envelope/envelope-limits.js';
export type { ObservationImage } from './envelope/image-attachments.js';
export { parseJsonPath, selectJsonPath, type PathSegment } from './envelope/json-path.js';
export { type CutMarker, type ReadResultPointer } from './envelope/markers.js';
export { isMedia } from './envelope/media.js';
export { parseJsonText } from './envelope/observation-document.js';
export {
  MemoryObservationStore,
  type KeptObservation,
  type MemoryObservationStoreOptions,
  type ObservationRead,
  type ObservationStore,
} from './envelope/observation-store.js';
export {
  processObservation,
  type ProcessObservationOptions,
  type ShapedResult,
} from './envelope/process-observation.js';
export { type ObservationReadOptions } from './envelope/read-observation.js';
export { IsolatedVmSandbox, type IsolatedVmSandboxOptions } from './sandbox/isolated-vm-sandbox.js';
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

export { closeDefaultStack } from './default-stack.js';
export {
  executeMcpTask,
  getClient,
  getIndex,
  getManifest,
  initRegistry,
  isRegistered,
  OAuthManager,
  searchTools,
} from './shims.js';
export {
  PROVIDER_ID_PATTERN,
  ProviderNotFoundError,
  type LegacyManifestServer,
  type LegacyServerUsage,
  type LegacyTaskResult,
  type LegacyTaskUsage,
  type LegacyToolManifest,
  type LegacyToolSpec,
} from './provider-names.js';

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

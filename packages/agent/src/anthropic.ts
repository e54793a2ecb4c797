export {
  createAnthropicModelClient,
  DEFAULT_ANTHROPIC_MODEL,
  type AnthropicModelClientOptions,
} from './model/anthropic-model-client.js';

/**
 * The Anthropic adapter (`@anthropic-ai/sdk`), on its own subpath so that the root entry never
 * loads the SDK.
 *
 * @module @mcp-agent/agent/anthropic
 */
export {
  createAnthropicModelClient,
  DEFAULT_ANTHROPIC_MODEL,
  type AnthropicModelClientOptions,
} from './model/anthropic-model-client.js';

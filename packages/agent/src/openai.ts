// The OpenAI-compatible adapter on its own subpath (`@mcp-agent/agent/openai`), so that the root
// entry never loads the openai SDK.
export {
  createOpenAIModelClient,
  DEFAULT_OPENAI_MODEL,
  type OpenAIModelClientOptions,
} from './model/openai-model-client.js';

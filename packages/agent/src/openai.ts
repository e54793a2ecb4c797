/**
 * The OpenAI-compatible adapter (the `openai` SDK: OpenAI, vLLM, Ollama, llama.cpp, LM Studio,
 * LiteLLM), on its own subpath so that the root entry never loads the SDK.
 *
 * @module @mcp-agent/agent/openai
 */
export {
  createOpenAIModelClient,
  DEFAULT_OPENAI_MODEL,
  type OpenAIModelClientOptions,
} from './model/openai-model-client.js';

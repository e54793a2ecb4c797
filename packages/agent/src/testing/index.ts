export {
  startScriptedAnthropicServer,
  type AnthropicRequestBody,
  type RecordedRequest,
  type ScriptedAnthropicServer,
  type ScriptedBlock,
  type ScriptedError,
  type ScriptedMessage,
  type ScriptStep,
} from './scripted-anthropic-server.js';
export {
  startScriptedOpenAIServer,
  type ChatCompletionsRequestBody,
  type ChatScriptStep,
  type RecordedChatRequest,
  type ScriptedChatError,
  type ScriptedCompletion,
  type ScriptedOpenAIServer,
  type ScriptedToolCall,
} from './scripted-openai-server.js';
export type {
  EndpointReply,
  RecordedHttpRequest,
  ScriptEntry,
  ScriptedEndpoint,
} from './scripted-endpoint.js';
export { MockModelClient, mockText, mockToolUse, type MockTurn } from './mock-model-client.js';
export {
  ADAPTERS,
  say,
  startModelEndpoint,
  use,
  type Adapter,
  type ModelEndpoint,
  type RequestView,
  type ScriptTurn,
  type Turn,
  type TurnError,
  type TurnUse,
} from './scripted-model-endpoints.js';

export {
  startScriptedAnthropicServer,
  type RecordedRequest,
  type ScriptedAnthropicServer,
  type ScriptedBlock,
  type ScriptedMessage,
  type ScriptStep,
} from './scripted-anthropic-server.js';
export { MockModelClient, mockText, mockToolUse, type MockTurn } from './mock-model-client.js';

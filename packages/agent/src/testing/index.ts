export {
  startScriptedAnthropicServer,
  type RecordedRequest,
  type ScriptedAnthropicServer,
  type ScriptedBlock,
  type ScriptStep,
} from './scripted-anthropic-server.js';

export {
  FakeSandbox,
  type FakeSandboxRun,
  type FakeSandboxScript,
  type FakeSandboxScriptOptions,
} from './fake-sandbox.js';

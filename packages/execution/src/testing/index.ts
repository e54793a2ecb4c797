export {
  FakeSandbox,
  type FakeSandboxRun,
  type FakeSandboxScript,
  type FakeSandboxScriptOptions,
} from './fake-sandbox.js';
export { reassemble, type PointerReader } from './reassemble.js';

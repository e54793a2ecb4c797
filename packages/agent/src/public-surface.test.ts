import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/agent', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/agent')).sort()).toMatchInlineSnapshot(`
      [
        "Agent",
        "DEFAULT_MODEL_PRICES",
        "DurableTasks",
        "InvalidToolInput",
        "MetaToolSession",
        "TOOL_MODES",
        "closeSharedStack",
        "createModelClientFromEnv",
        "executeTask",
        "executeTaskTool",
        "isModelConfigured",
        "openAgentStack",
        "searchScope",
        "taskContextSchema",
      ]
    `);
  });

  it('./testing exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/agent/testing')).sort()).toMatchInlineSnapshot(`
      [
        "ADAPTERS",
        "MockModelClient",
        "mockText",
        "mockToolUse",
        "say",
        "startModelEndpoint",
        "startScriptedAnthropicServer",
        "startScriptedOpenAIServer",
        "use",
      ]
    `);
  });

  it('./anthropic exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/agent/anthropic')).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_ANTHROPIC_MODEL",
        "createAnthropicModelClient",
      ]
    `);
  });

  it('./openai exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/agent/openai')).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_OPENAI_MODEL",
        "createOpenAIModelClient",
      ]
    `);
  });
});

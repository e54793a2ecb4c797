import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '@mcp-agent/core';
import {
  startScriptedAnthropicServer,
  startScriptedOpenAIServer,
  type ScriptedAnthropicServer,
} from '../testing/index.js';
import { createAnthropicModelClient, DEFAULT_ANTHROPIC_MODEL } from './anthropic-model-client.js';
import { createModelClientFromEnv, isModelConfigured } from './model-from-env.js';

describe('createModelClientFromEnv and isModelConfigured', () => {
  it.each([
    [{ MCP_AGENT_MODEL: 'anthropic:claude-opus-5', ANTHROPIC_API_KEY: 'k' }, 'claude-opus-5'],
    [{ MCP_AGENT_MODEL: 'anthropic', ANTHROPIC_API_KEY: 'k' }, DEFAULT_ANTHROPIC_MODEL],
    [{ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'claude-haiku-4-5' }, 'claude-haiku-4-5'],
    [{ MCP_AGENT_MODEL: 'openai:gpt-6-luna', OPENAI_API_KEY: 'k' }, 'gpt-6-luna'],
    [
      { MCP_AGENT_MODEL: 'openai:qwen3:32b', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
      'qwen3:32b',
    ],
    [{ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODEL: 'llama' }, 'llama'],
  ])('%o chooses model %s', async (env, model) => {
    expect(isModelConfigured(env)).toBe(true);
    expect((await createModelClientFromEnv(env)).modelId).toBe(model);
  });

  it.each([
    [{}, /No model endpoint is configured\. Set MCP_AGENT_MODEL=anthropic:<model>.*openai:<model>/],
    [{ MCP_AGENT_MODEL: 'anthropic:claude-opus-5' }, /needs ANTHROPIC_API_KEY, which is not set/],
    [
      { MCP_AGENT_MODEL: 'openai:gpt-6-luna', ANTHROPIC_API_KEY: 'k' },
      /needs OPENAI_API_KEY .* or OPENAI_BASE_URL .*, and neither is set/,
    ],
    [
      { MCP_AGENT_MODEL: 'gemini:pro', ANTHROPIC_API_KEY: 'k' },
      /"gemini:pro" names no known provider: use anthropic:<model> or openai:<model>/,
    ],
  ])('%o is one ConfigError naming what is missing', async (env, message) => {
    expect(isModelConfigured(env)).toBe(false);
    const failure = await createModelClientFromEnv(env).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(message);
  });
});

describe('createModelClientFromEnv with verifyToolSupport: false', () => {
  it('takes a first answer without a tool call as it is: one request, no tool_choice, no error', async () => {
    // An endpoint that ignores tool_choice answers in words however it is asked: a benchmark's
    // right answer to a request no tool can do must not become a ConfigError (issue 43).
    const server = await startScriptedOpenAIServer();
    try {
      server.push({ content: 'No connected tool can send email.\nANSWER: not possible' });
      const env = { MCP_AGENT_MODEL: 'openai:local', OPENAI_BASE_URL: server.url };
      const model = await createModelClientFromEnv(env, { verifyToolSupport: false });
      const response = await model.generate({
        system: 'Use the tools.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Email my boss.' }] }],
        tools: [{ name: 'search_tools', description: 'Search.', inputSchema: { type: 'object' } }],
        maxTokens: 256,
      });
      expect(response.content).toEqual([
        { type: 'text', text: 'No connected tool can send email.\nANSWER: not possible' },
      ]);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.body.tool_choice).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

describe('the default Anthropic model', () => {
  let server: ScriptedAnthropicServer;
  afterEach(async () => {
    vi.restoreAllMocks();
    await server.close();
  });

  it('is one the installed @anthropic-ai/sdk does not warn about as deprecated', async () => {
    server = await startScriptedAnthropicServer();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const request = {
      system: 's',
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
      tools: [],
      maxTokens: 10,
    };
    const withModel = (model?: string) =>
      createAnthropicModelClient({
        apiKey: 'test-key-not-secret',
        baseURL: server.url,
        ...(model === undefined ? {} : { model }),
      });
    server.push({ content: [{ type: 'text', text: 'ok' }] });
    await withModel().generate(request);
    expect(server.requests[0]?.body.model).toBe(DEFAULT_ANTHROPIC_MODEL);
    expect(warn).not.toHaveBeenCalled();
    // The check can fail: the previous default draws the SDK's warning.
    server.push({ content: [{ type: 'text', text: 'ok' }] });
    await withModel('claude-sonnet-4-5').generate(request);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/'claude-sonnet-4-5' is deprecated/));
  });
});

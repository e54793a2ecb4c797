import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
} from '../testing/scripted-anthropic-server.js';
import { createAnthropicModelClient } from './anthropic-model-client.js';
import type { ModelRequest } from './model-client.js';
import { createModelClientFromEnv } from './model-from-env.js';

// The adapter alone, through the real @anthropic-ai/sdk, against the scripted Messages API.
let server: ScriptedAnthropicServer;

beforeEach(async () => {
  server = await startScriptedAnthropicServer();
});
afterEach(async () => {
  await server.close();
});

const client = () =>
  createAnthropicModelClient({
    apiKey: 'test-key-not-secret',
    baseURL: server.url,
    model: 'no-such-model',
    maxRetries: 0,
    env: {},
  });

const ask: ModelRequest = {
  system: 'You are helpful.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  tools: [],
  maxTokens: 100,
};

describe('Anthropic-compatible endpoint errors', () => {
  it('a 400 is a CONFIG error naming the endpoint, the model, what it said and the fix', async () => {
    server.push(
      { error: { status: 400, type: 'invalid_request_error', message: 'model: no-such-model' } },
      {
        error: {
          status: 400,
          type: 'invalid_request_error',
          message: 'messages: roles must alternate between "user" and "assistant"',
        },
      },
    );
    const error = await client()
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      details: { endpoint: server.url, model: 'no-such-model', status: 400 },
    });
    expect((error as Error).message).toMatch(
      /^The model endpoint http:\/\/127\.0\.0\.1:\d+ \(model "no-such-model"\) does not know the model \(HTTP 400\): "model: no-such-model"\. It was given as the model option: pass a model this endpoint serves\.$/,
    );
    // Any other refused request: what the body said, and which settings to check.
    await expect(client().generate(ask)).rejects.toThrow(
      /refused the request \(HTTP 400\): "messages: roles must alternate.*"\. Check that ANTHROPIC_BASE_URL is an endpoint of the Anthropic Messages API \(its \/v1\/messages\) and that the model \(the model option\) is one it serves\./,
    );
  });

  it('a refusal of tools says so; a refused key is UNAUTHORIZED and names the variable', async () => {
    server.push(
      { error: { status: 400, type: 'invalid_request_error', message: 'tools are not supported' } },
      { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
    );
    await expect(client().generate(ask)).rejects.toThrow(/refused tools \(HTTP 400\)/);
    await expect(client().generate(ask)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/refused the key from the apiKey option \(HTTP 401\)/),
    });
  });

  it('a 400 saying a tool\'s JSON schema is invalid names that tool and its schema, not "refused tools"', async () => {
    server.push({
      error: {
        status: 400,
        type: 'invalid_request_error',
        message:
          'tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).',
      },
    });
    const tools = ['search_tools', 'github__create_issue'].map((name) => ({
      name,
      description: name,
      inputSchema: { type: 'object' },
    }));
    const error = (await client()
      .generate({ ...ask, tools })
      .catch((e: unknown) => e)) as Error & { code: string; details: object };
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).not.toMatch(/refused tools/);
    expect(error.message).toMatch(
      /refused the definition of the tool "github__create_issue" in the request \(HTTP 400\): "tools\.1\.custom\.input_schema: JSON schema is invalid\..*"\. The endpoint takes tools, but not this tool's input schema/,
    );
    expect(error.details).toMatchObject({
      refusal: 'tool-definition',
      tool: 'github__create_issue',
    });
  });

  it("a key from the environment that the endpoint refuses names ANTHROPIC_API_KEY, not an MCP server's sign-in", async () => {
    server.push({
      error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
    });
    const model = await createModelClientFromEnv({
      MCP_AGENT_MODEL: 'anthropic:claude-haiku-4-5',
      ANTHROPIC_API_KEY: 'wrong-key-not-secret',
      ANTHROPIC_BASE_URL: server.url,
    });
    const error = (await model.generate(ask).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(
      /refused the key from ANTHROPIC_API_KEY \(HTTP 401\): "invalid x-api-key"\. Set ANTHROPIC_API_KEY to a key this endpoint accepts\./,
    );
    expect(error.message).not.toMatch(/auth login|wrong-key/);
  });

  it('a 404 for the model names the variable that chose it: MCP_AGENT_MODEL, or ANTHROPIC_MODEL', async () => {
    const notFound = (model: string) => ({
      error: { status: 404, type: 'not_found_error', message: `model: ${model}` },
    });
    server.push(notFound('claude-nope'), notFound('claude-gone'));
    const named = await createModelClientFromEnv({
      MCP_AGENT_MODEL: 'anthropic:claude-nope',
      ANTHROPIC_MODEL: 'claude-haiku-4-5',
      ANTHROPIC_API_KEY: 'test-key-not-secret',
      ANTHROPIC_BASE_URL: server.url,
    });
    const first = (await named.generate(ask).catch((e: unknown) => e)) as Error;
    expect(first.message).toMatch(
      /\(model "claude-nope"\) does not know the model \(HTTP 404\): "model: claude-nope"\. MCP_AGENT_MODEL chose it: set MCP_AGENT_MODEL to a model this endpoint serves\./,
    );
    expect(first.message).not.toMatch(/ANTHROPIC_MODEL/);
    const fromVariable = await createModelClientFromEnv({
      ANTHROPIC_MODEL: 'claude-gone',
      ANTHROPIC_API_KEY: 'test-key-not-secret',
      ANTHROPIC_BASE_URL: server.url,
    });
    const second = (await fromVariable.generate(ask).catch((e: unknown) => e)) as Error;
    expect(second.message).toMatch(/ANTHROPIC_MODEL chose it: set ANTHROPIC_MODEL to a model/);
    expect(second.message).not.toMatch(/MCP_AGENT_MODEL/);
  });

  it('a 404 for a path the endpoint does not serve names ANTHROPIC_BASE_URL', async () => {
    const model = createAnthropicModelClient({
      apiKey: 'test-key-not-secret',
      baseURL: `${server.url}/not-anthropic`,
      maxRetries: 0,
      env: {},
    });
    await expect(model.generate(ask)).rejects.toThrow(
      /has no such route \(HTTP 404\).*Check ANTHROPIC_BASE_URL: it must be an endpoint of the Anthropic Messages API/,
    );
  });
});

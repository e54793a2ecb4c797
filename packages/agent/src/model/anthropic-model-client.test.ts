import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
} from '../testing/scripted-anthropic-server.js';
import { createAnthropicModelClient } from './anthropic-model-client.js';
import type { ModelRequest } from './model-client.js';

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
    server.push({
      error: { status: 400, type: 'invalid_request_error', message: 'model: no-such-model' },
    });
    const error = await client()
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      details: { endpoint: server.url, model: 'no-such-model', status: 400 },
    });
    expect((error as Error).message).toMatch(
      /^The model endpoint http:\/\/127\.0\.0\.1:\d+ \(model "no-such-model"\) refused the request \(HTTP 400\): ".*model: no-such-model.*"\. Check the model name \(ANTHROPIC_MODEL\)/,
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
      message: expect.stringMatching(/refused the key \(HTTP 401\).*ANTHROPIC_API_KEY/),
    });
  });
});

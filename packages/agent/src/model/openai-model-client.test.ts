import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '@mcp-agent/core';
import {
  startScriptedOpenAIServer,
  type ChatScriptStep,
  type ScriptedOpenAIServer,
} from '../testing/index.js';
import { InvalidToolInput } from '../input/invalid-tool-input.js';
import type { ModelRequest } from './model-client.js';
import { createModelClientFromEnv } from './model-from-env.js';
import { createOpenAIModelClient, type OpenAIModelClientOptions } from './openai-model-client.js';

// The adapter alone, through the real openai SDK, against the scripted Chat Completions server.
let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const tools = [
  {
    name: 'search_tools',
    description: 'Search tools',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
  },
];

function client(options: OpenAIModelClientOptions = {}) {
  return createOpenAIModelClient({
    apiKey: 'test-key-not-secret',
    baseURL: server.url,
    model: 'local-model',
    ...options,
  });
}

function ask(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are helpful.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Find the issues' }] }],
    tools,
    maxTokens: 512,
    ...overrides,
  };
}

const call = (name: string, args: string | object, id?: string): ChatScriptStep => ({
  tool_calls: [{ name, arguments: args, ...(id === undefined ? {} : { id }) }],
});

describe('createOpenAIModelClient (real openai SDK, scripted endpoint)', () => {
  it('sends Chat Completions with function tools and maps tool calls, stop reason and cached usage', async () => {
    server.push({
      content: 'Searching.',
      tool_calls: [
        { id: 'call_a', name: 'search_tools', arguments: { query: 'issues' } },
        { id: 'call_b', name: 'search_tools', arguments: '' },
      ],
      usage: { prompt_tokens: 1_200, completion_tokens: 30, cached_tokens: 1_000 },
    });
    const response = await client().generate(ask());
    expect(response).toEqual({
      content: [
        { type: 'text', text: 'Searching.' },
        { type: 'tool_use', id: 'call_a', name: 'search_tools', input: { query: 'issues' } },
        // Empty arguments are no arguments.
        { type: 'tool_use', id: 'call_b', name: 'search_tools', input: {} },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 200, outputTokens: 30, cacheReadTokens: 1_000, cacheWriteTokens: 0 },
    });
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer test-key-not-secret');
    expect(request?.body).toMatchObject({
      model: 'local-model',
      // Not OpenAI's own endpoint: the field every compatible server knows.
      max_tokens: 512,
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Find the issues' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'search_tools',
            description: 'Search tools',
            parameters: tools[0]?.inputSchema,
          },
        },
      ],
    });
    expect(request?.body.tool_choice).toBeUndefined();
    expect(request?.body.max_completion_tokens).toBeUndefined();
  });

  it('sends max_completion_tokens when told to, and no usage is zero usage', async () => {
    server.push({ ...call('search_tools', { query: 'x' }), usage: null });
    const response = await client({ maxTokensField: 'max_completion_tokens' }).generate(ask());
    expect(server.requests[0]?.body).toMatchObject({ max_completion_tokens: 512 });
    expect(server.requests[0]?.body.max_tokens).toBeUndefined();
    expect(response.usage).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('replays the conversation as assistant tool_calls and one tool message per result, in order', async () => {
    server.push({ content: 'Done.' });
    await client().generate(
      ask({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Find the issues' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'call_1', name: 'search_tools', input: { query: 'a' } },
              {
                type: 'tool_use',
                id: 'call_2',
                name: 'search_tools',
                input: new InvalidToolInput('{"query": ', 'Unexpected end of JSON input'),
              },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_1', content: '{"results":[]}' },
              {
                type: 'tool_result',
                tool_use_id: 'call_2',
                content: '{"error":{}}',
                is_error: true,
              },
            ],
          },
        ],
      }),
    );
    expect(server.requests[0]?.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Find the issues' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'search_tools', arguments: '{"query":"a"}' },
          },
          // What the model wrote goes back as it wrote it.
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'search_tools', arguments: '{"query": ' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"results":[]}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"error":{}}' },
    ]);
  });

  it('passes arguments that are not JSON on as InvalidToolInput, with the parse error', async () => {
    server.push(call('search_tools', '{"query": "issues"'));
    const response = await client().generate(ask());
    const use = response.content[0];
    expect(use).toMatchObject({ type: 'tool_use', name: 'search_tools' });
    const input = (use as { input: unknown }).input;
    expect(input).toBeInstanceOf(InvalidToolInput);
    expect(input).toMatchObject({
      raw: '{"query": "issues"',
      reason: expect.stringMatching(/JSON/),
    });
  });

  it('429 with retry-after and 500 are retried by the SDK; a plain 400 is not', async () => {
    server.push(
      { error: { status: 429, message: 'Rate limit reached', retryAfterSeconds: 0 } },
      { error: { status: 500, message: 'The server had an error' } },
      call('search_tools', { query: 'x' }),
    );
    const response = await client().generate(ask());
    expect(response.stopReason).toBe('tool_use');
    expect(server.requests).toHaveLength(3);
    server.push({ error: { status: 400, message: "'messages' must not be empty" } });
    await expect(client().generate(ask())).rejects.toThrow(
      /refused the request \(HTTP 400\): "'messages' must not be empty"/,
    );
    expect(server.requests).toHaveLength(4);
  });

  it('a first answer without a tool call is asked again with a tool required, and the call is used', async () => {
    server.push(
      {
        content: 'You have two issues, I think.',
        usage: { prompt_tokens: 100, completion_tokens: 9 },
      },
      {
        ...call('search_tools', { query: 'issues' }),
        usage: { prompt_tokens: 110, completion_tokens: 5 },
      },
    );
    const response = await client().generate(ask());
    expect(response.content).toEqual([
      {
        type: 'tool_use',
        id: expect.any(String),
        name: 'search_tools',
        input: { query: 'issues' },
      },
    ]);
    // Both requests are paid for.
    expect(response.usage).toMatchObject({ inputTokens: 210, outputTokens: 14 });
    expect(server.requests.map((r) => r.body.tool_choice)).toEqual([undefined, 'required']);
  });

  it('an endpoint that ignores tools (text twice, a tool required the second time) is a ConfigError saying so', async () => {
    server.push({ content: 'I cannot browse.' }, { content: 'I cannot browse.' });
    const failure = await client()
      .generate(ask())
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).message).toMatch(
      /ignores function tools: it answered in words twice.*needs function calling/,
    );
    expect(server.requests).toHaveLength(2);
    // Later turns, with a conversation under way, are never asked twice.
    server.push({ content: 'Done.' });
    const later = await client().generate(
      ask({
        messages: [
          ...ask().messages,
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'c', name: 'search_tools', input: {} }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: '{}' }] },
        ],
      }),
    );
    expect(later.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('an endpoint that refuses tools with a 400 (Ollama, vLLM) is a ConfigError naming the fix, not retried', async () => {
    server.push({
      error: { status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' },
    });
    await expect(client().generate(ask())).rejects.toThrow(
      /refused tools \(HTTP 400\): "registry.ollama.ai\/library\/gemma:2b does not support tools".*--enable-auto-tool-choice/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a 400 saying a function\'s schema is invalid names that tool and its schema, not "refused tools"', async () => {
    server.push({
      error: {
        status: 400,
        message:
          "Invalid schema for function 'search_tools': In context=(), 'additionalProperties' is required to be supplied and to be false.",
        code: 'invalid_function_parameters',
      },
    });
    const error = (await client()
      .generate(ask())
      .catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).not.toMatch(/refused (function )?tools/);
    expect(error.message).toMatch(
      /refused the definition of the tool "search_tools" in the request \(HTTP 400\): "Invalid schema for function 'search_tools'/,
    );
  });

  it("a refused key names the variable it came from, or says none was sent; never an MCP server's sign-in", async () => {
    const refused = { error: { status: 401, message: 'Incorrect API key provided.' } };
    server.push(refused, refused);
    const fromEnv = await createModelClientFromEnv({
      MCP_AGENT_MODEL: 'openai:local-model',
      OPENAI_API_KEY: 'wrong-key-not-secret',
      OPENAI_BASE_URL: server.url,
    });
    const error = (await fromEnv.generate(ask()).catch((e: unknown) => e)) as ConfigError;
    expect(error.code).toBe('UNAUTHORIZED');
    expect(error.message).toMatch(
      /refused the key from OPENAI_API_KEY \(HTTP 401\): "Incorrect API key provided\."\. Set OPENAI_API_KEY to a key this endpoint accepts\./,
    );
    expect(error.message).not.toMatch(/auth login|wrong-key/);
    const keyless = await createModelClientFromEnv({
      MCP_AGENT_MODEL: 'openai:local-model',
      OPENAI_BASE_URL: server.url,
    });
    await expect(keyless.generate(ask())).rejects.toThrow(
      /wants a key and none was sent \(HTTP 401\).*Set OPENAI_API_KEY to a key this endpoint accepts/,
    );
  });

  it('a 404 for the model names the variable that chose it', async () => {
    server.push(
      { error: { status: 404, message: 'The model `qwen9` does not exist.' } },
      { error: { status: 404, message: "model 'llama9' not found, try pulling it first" } },
    );
    const named = await createModelClientFromEnv({
      MCP_AGENT_MODEL: 'openai:qwen9',
      OPENAI_MODEL: 'llama3.1',
      OPENAI_BASE_URL: server.url,
    });
    const error = (await named.generate(ask()).catch((e: unknown) => e)) as ConfigError;
    expect(error.message).toMatch(
      /\(model "qwen9"\) does not know the model \(HTTP 404\).*MCP_AGENT_MODEL chose it: set MCP_AGENT_MODEL to a model this endpoint serves\./,
    );
    expect(error.message).not.toMatch(/OPENAI_MODEL/);
    const fromVariable = createOpenAIModelClient({
      env: { OPENAI_BASE_URL: server.url, OPENAI_MODEL: 'llama9' },
    });
    await expect(fromVariable.generate(ask())).rejects.toThrow(
      /OPENAI_MODEL chose it: set OPENAI_MODEL to a model this endpoint serves/,
    );
  });

  it('a missing key is a ConfigError unless another endpoint is named; the env decides, not the process', () => {
    expect(() => createOpenAIModelClient({ env: {} })).toThrow(ConfigError);
    expect(() => createOpenAIModelClient({ env: {} })).toThrow(/OPENAI_API_KEY/);
    const local = createOpenAIModelClient({
      env: { OPENAI_BASE_URL: server.url, OPENAI_MODEL: 'llama3.1' },
    });
    expect(local.modelId).toBe('llama3.1');
  });

  it('a local endpoint named by OPENAI_BASE_URL is used without a key', async () => {
    server.push(call('search_tools', { query: 'x' }));
    await createOpenAIModelClient({ env: { OPENAI_BASE_URL: server.url } }).generate(ask());
    expect(server.requests[0]?.body.model).toBe('gpt-6.1-sol');
  });
});

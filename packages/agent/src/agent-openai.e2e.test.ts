import { describe, expect, it } from 'vitest';
import { e2e, META, say, USER, useE2eStack } from './e2e-test-helpers.js';

// What only the OpenAI-compatible path has: endpoints (local models) that take `tools` and
// ignore them, or refuse them.
describe('executeTask on an OpenAI-compatible endpoint without function calling', () => {
  useE2eStack('openai');

  it('an endpoint that ignores tools fails the task with a clear error before any tool runs', async () => {
    // A local model without function calling: words, whatever it is offered.
    e2e.model.push(
      say('To label the issue, open GitHub and click Labels.'),
      say('To label the issue, open GitHub and click Labels.'),
    );
    const result = await e2e.agent.executeTask('Label the crash issue as a bug', USER);
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(
        /ignores function tools: it answered in words twice, the second time although a tool call was required/,
      ),
    });
    expect(result.answer).toBeNull();
    expect(result.steps).toEqual([]);
    // The meta-tools were offered both times; the second time a call was required.
    expect(e2e.model.requests.map((r) => r.toolNames)).toEqual([META, META]);
    expect(e2e.model.requests.map((r) => r.toolChoice)).toEqual([undefined, 'required']);
  });

  it('an endpoint that refuses tools with a 400 fails the task naming the refusal', async () => {
    e2e.model.push({
      error: {
        status: 400,
        message:
          '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      },
    });
    const result = await e2e.agent.executeTask('Label the crash issue as a bug', USER);
    expect(result).toMatchObject({
      status: 'failed',
      error: {
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(/refused tools \(HTTP 400\).*--enable-auto-tool-choice/),
      },
    });
    expect(e2e.model.requests).toHaveLength(1);
  });

  it('a model that answers in words first is asked once with a tool required, and the task goes on', async () => {
    e2e.model.push(
      say('Sure, let me look.'),
      { uses: [{ name: 'search_tools', input: { query: 'label an issue' } }] },
      say('The add_label tool does it.'),
    );
    const result = await e2e.agent.executeTask('Which tool labels issues?', USER);
    expect(result).toMatchObject({ status: 'completed', answer: 'The add_label tool does it.' });
    expect(result.steps.map((s) => s.command)).toEqual(['search_tools']);
    expect(e2e.model.requests.map((r) => r.toolChoice)).toEqual([undefined, 'required', undefined]);
    // Both requests of the first step are counted.
    expect(result.usage).toMatchObject({ inputTokens: 300, outputTokens: 60 });
  });
});

import { describe, expect, it } from 'vitest';
import type { StepEvent } from '@mcp-agent/core';
import {
  ADAPTERS,
  addScripted,
  e2e,
  makeAgent,
  say,
  use,
  USER,
  useE2eStack,
} from './e2e-test-helpers.js';
import type { AnthropicRequestBody, ChatCompletionsRequestBody } from './testing/index.js';

// A real 1×1 PNG; the audio is a WAV header and silence.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WAV = Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVEfmt '), Buffer.alloc(64)]).toString(
  'base64',
);

const cameraScript = {
  tools: [
    {
      name: 'snapshot',
      description: 'Take a snapshot of the camera, with the sound of the room',
      inputSchema: { type: 'object', properties: {} },
    },
  ],
  results: {
    snapshot: {
      content: [
        { type: 'text', text: 'Snapshot taken.' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'audio', data: WAV, mimeType: 'audio/wav' },
      ],
    },
  },
};

const walk = [
  use('describe_tools', { tool_ids: ['camera.snapshot'] }),
  use('call_tool', { tool_id: 'camera.snapshot', arguments: {} }),
  say('A one-pixel image.'),
];

describe.each(ADAPTERS)('images reach the model on %s (real SDK on the wire)', (adapter) => {
  useE2eStack(adapter);

  it('OUT-05 a tool result image is sent to the model as an image; the audio is described', async () => {
    await addScripted('camera', cameraScript);
    e2e.model.push(...walk);
    const result = await e2e.agent.executeTask('What does the camera see?', USER);
    expect(result).toMatchObject({ status: 'completed', answer: 'A one-pixel image.' });
    const request = e2e.model.requests[2];
    // The text of the result describes both blocks and says which is shown.
    expect(request?.lastTurn).toContain('yes: image 1, attached after this result');
    expect(request?.lastTurn).toContain('no: the model reads no audio');
    expect(request?.lastTurn).not.toContain(WAV.slice(0, 40));
    if (adapter === 'anthropic') {
      const body = request?.body as AnthropicRequestBody;
      const last = body.messages.at(-1) as { content: { type: string; content: unknown }[] };
      const toolResult = last.content.find((block) => block.type === 'tool_result');
      expect(toolResult?.content).toEqual([
        { type: 'text', text: expect.stringContaining('Snapshot taken.') },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ]);
    } else {
      const body = request?.body as ChatCompletionsRequestBody;
      const messages = body.messages as { role: string; content: unknown }[];
      const tool = messages.findLastIndex((m) => m.role === 'tool');
      // The tool message carries text; the image follows in a user message.
      expect(typeof messages[tool]?.content).toBe('string');
      expect(messages[tool + 1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: expect.stringMatching(/^Image 1 of the result of tool call /) },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      });
    }
  }, 60_000);

  it('a model that reads no images gets the image described, never sent', async () => {
    await addScripted('camera', cameraScript);
    const client = e2e.model.client();
    const agent = makeAgent({ model: { ...client, images: false } });
    e2e.model.push(...walk);
    const result = await agent.executeTask('What does the camera see?', USER);
    expect(result.status).toBe('completed');
    const wire = JSON.stringify(e2e.model.requests[2]?.body);
    expect(wire).not.toContain(PNG.slice(0, 40));
    expect(wire).not.toContain('image_url');
    expect(e2e.model.requests[2]?.lastTurn).toContain('image/png');
    expect(e2e.model.requests[2]?.lastTurn).toContain('read_result');
  }, 60_000);
});

describe('progress events in the task stream', () => {
  useE2eStack('anthropic');

  it("a tool's progress reaches onEvent as progress events of its command, from call_tool and from run_code", async () => {
    await addScripted('ci', {
      tools: [
        {
          name: 'build',
          description: 'Build the project',
          inputSchema: { type: 'object', properties: {} },
        },
      ],
      results: { build: { content: [{ type: 'text', text: 'built' }] } },
      progress: {
        build: [
          { progress: 1, total: 2, message: 'compiling' },
          { progress: 2, total: 2, message: 'linking' },
        ],
      },
    });
    e2e.model.push(
      use('describe_tools', { tool_ids: ['ci.build'] }),
      use('call_tool', { tool_id: 'ci.build', arguments: {} }),
      use('run_code', { code: 'return await tools.ci.build({})' }),
      say('Built twice.'),
    );
    const events: StepEvent[] = [];
    const result = await e2e.agent.executeTask('Build it', USER, {
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe('completed');
    const progress = events.filter((event) => event.type === 'progress');
    expect(progress).toEqual(
      [1, 2].flatMap((step) => [
        {
          type: 'progress',
          requestId: result.requestId,
          step,
          command: step === 1 ? 'call_tool' : 'run_code',
          progress: 1,
          total: 2,
          message: 'compiling',
        },
        {
          type: 'progress',
          requestId: result.requestId,
          step,
          command: step === 1 ? 'call_tool' : 'run_code',
          progress: 2,
          total: 2,
          message: 'linking',
        },
      ]),
    );
    // Each command's progress comes after its call and before its observation.
    const order = events.map((event) => event.type).join(',');
    expect(order).toContain('tool-call,progress,progress,observation');
  }, 60_000);
});

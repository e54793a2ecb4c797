import { describe, expect, it } from 'vitest';
import { createContext } from '@mcp-agent/core';
import { sniffImageType } from './image-attachments.js';
import { MemoryObservationStore } from './observation-store.js';
import { processObservation } from './process-observation.js';

const ctx = createContext({ userId: 'alice' });
// A real 1×1 PNG, and base64 of `size` bytes that starts as a PNG, JPEG or GIF does.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const fake = (head: number[], size: number) =>
  Buffer.concat([Buffer.from(head), Buffer.alloc(size - head.length, 7)]).toString('base64');
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0];

describe('images shown beside an observation', () => {
  it('OUT-05 an image within the limits is attached with its data and described as shown', () => {
    const store = new MemoryObservationStore();
    const result = [
      { type: 'text', text: 'Here it is:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
    ];
    const seen = processObservation(ctx, result, { store, images: {} });
    expect(seen.images).toEqual([{ mimeType: 'image/png', data: PNG, path: '[1]' }]);
    expect(seen.data).toEqual([
      { type: 'text', text: 'Here it is:' },
      {
        type: 'image',
        mimeType: 'image/png',
        bytes: 70, // decoded: the two = of padding are not data
        read_result: { id: seen.observationId, path: '[1]' },
        shown: 'yes: image 1, attached after this result',
      },
    ]);
    // Without `images` (code, a reader that sees no images) nothing is attached or claimed.
    const plain = processObservation(ctx, result, { store });
    expect(plain.images).toBeUndefined();
    expect(JSON.stringify(plain.data)).not.toContain('shown');
  });

  it('OUT-05 per image, per observation and by type: what is not attached says why', () => {
    const big = fake(JPEG_HEAD, 1_500);
    const medium = fake(JPEG_HEAD, 600);
    const result = [
      { type: 'image', data: big, mimeType: 'image/jpeg' },
      { type: 'image', data: medium, mimeType: 'image/jpeg' },
      { type: 'image', data: medium, mimeType: 'image/jpeg' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'image', data: fake([0x3c, 0x73, 0x76, 0x67], 300), mimeType: 'image/svg+xml' },
      { type: 'audio', data: fake([0x52, 0x49, 0x46, 0x46], 300), mimeType: 'audio/wav' },
    ];
    const seen = processObservation(ctx, result, {
      store: new MemoryObservationStore(),
      images: { maxImageBytes: 1_000, maxImagesBytes: 1_100, maxImages: 2 },
    });
    const shown = (seen.data as { shown: string }[]).map((block) => block.shown);
    expect(shown).toEqual([
      'no: 1500 bytes is more than the 1000 bytes an image may have to be shown',
      'yes: image 1, attached after this result',
      'no: the images of one result may have 1100 bytes in all',
      'yes: image 2, attached after this result',
      'no: only 2 images of one result are shown',
      'no: the data is not a PNG, JPEG, GIF or WebP image (declared image/svg+xml)',
      'no: the model reads no audio; code (run_code) receives its data',
    ]);
    expect(seen.images?.map((image) => image.path)).toEqual(['[1]', '[3]']);
  });

  it('the type shown is the one the bytes have, whatever the server declared', () => {
    const seen = processObservation(
      ctx,
      { type: 'image', data: PNG, mimeType: 'image/jpeg' },
      {
        store: new MemoryObservationStore(),
        images: {},
      },
    );
    expect(seen.images?.[0]?.mimeType).toBe('image/png');
    expect(sniffImageType(fake([0x47, 0x49, 0x46, 0x38, 0x39, 0x61], 20))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ').toString('base64'))).toBe(
      'image/webp',
    );
    expect(sniffImageType('not base64 at all')).toBeUndefined();
  });

  it('read_result of an image path attaches the image again for a reader that sees images', () => {
    const store = new MemoryObservationStore();
    const seen = processObservation(
      ctx,
      [
        { type: 'text', text: 'x' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
      { store },
    );
    const id = seen.observationId as string;
    const read = store.read(ctx, id, { path: '[1]', images: {} });
    expect(read?.images).toEqual([{ mimeType: 'image/png', data: PNG, path: '[1]' }]);
    expect(read?.value).toMatchObject({ type: 'image', shown: expect.stringMatching(/^yes/) });
    expect(store.read(ctx, id, { path: '[1]' })?.images).toBeUndefined();
  });
});

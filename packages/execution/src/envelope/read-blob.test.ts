import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { cutToBudget } from './cut-to-budget.js';
import { decodedBytes, describeBlob } from './describe-blob.js';
import { Markers, type ReadResultPointer } from './markers.js';
import { describeMedia } from './media.js';
import { readObservation } from './read-observation.js';

const ID = 'obs_blob';
const TAIL = / … \[(\d+) more chars; read_result id=(\S+?)(?: offset=(\d+))?(?: path=(.*))?\]$/s;

// Follows a pointer exactly as given, page after page, as a model does with read_result; fails
// when a page answers with the marker it was reached from (a loop).
function follow(kept: JsonValue, first: ReadResultPointer): string {
  let pointer: ReadResultPointer | undefined = first;
  let text = '';
  for (let pages = 0; pointer !== undefined; pages++) {
    if (pages > 200) throw new Error('read_result never reached the end');
    const answer = readObservation(kept, ID, pointer).value as JsonObject | string;
    // A media block's pointer answers with its description and the first page of its base64.
    const page =
      typeof answer === 'string'
        ? answer
        : (answer.data ?? (answer.resource as JsonObject | undefined)?.blob);
    if (typeof page !== 'string') throw new Error(`no base64 in ${JSON.stringify(answer)}`);
    if (typeof answer !== 'string') expect(answer).not.toHaveProperty('read_result');
    const tail = TAIL.exec(page);
    text += tail === null ? page : page.slice(0, tail.index);
    if (tail !== null && Number(tail[3]) <= (pointer.offset ?? 0))
      throw new Error(`read_result went round in circles at ${JSON.stringify(pointer)}`);
    pointer =
      tail === null
        ? undefined
        : { id: tail[2]!, offset: Number(tail[3]), ...(tail[4] ? { path: tail[4] } : {}) };
  }
  return text;
}

describe('binary results through read_result', () => {
  const image = randomBytes(30_001).toString('base64');
  const blob = randomBytes(5_000).toString('base64');
  const kept: JsonValue = [
    { type: 'image', mimeType: 'image/png', data: image },
    { type: 'resource', resource: { uri: 'demo://b', mimeType: 'application/pdf', blob } },
    { raw: randomBytes(2_000).toString('base64') },
  ];

  it('says true byte counts: padding and line breaks are not bytes', () => {
    expect(decodedBytes(image)).toBe(30_001);
    expect(decodedBytes(blob)).toBe(5_000);
    expect(decodedBytes(`${image.slice(0, 76)}\r\n${image.slice(76)}`)).toBe(30_001);
    expect(decodedBytes(randomBytes(10).toString('base64url'))).toBe(10);
    expect(describeBlob(`data:image/png;base64,${image}`)).toBe('image/png data URL, 30001 bytes');
    const shown = describeMedia(kept, new Markers(ID)).value as JsonObject[];
    expect(shown[0]).toMatchObject({ type: 'image', bytes: 30_001 });
    expect(shown[1]).toMatchObject({ resource: { bytes: 5_000 } });
  });

  it('an image or blob cut for the model is read back whole, in base64 pages', () => {
    const shown = describeMedia(kept, new Markers(ID)).value as JsonObject[];
    const imagePointer = (shown[0] as unknown as { read_result: ReadResultPointer }).read_result;
    const blobPointer = (shown[1]!.resource as unknown as { read_result: ReadResultPointer })
      .read_result;
    expect(imagePointer).toEqual({ id: ID, path: '[0]' });
    expect(follow(kept, imagePointer)).toBe(image);
    expect(follow(kept, blobPointer)).toBe(blob);
  });

  it('a base64 string cut from a result is read back whole from its marker', () => {
    const cut = cutToBudget(kept[2] as JsonValue, 500, { observationId: ID, path: [2] });
    const marker = (cut.value as { raw: string }).raw;
    const match = /^\[base64 data, 2000 bytes; read_result id=(\S+) path=(.*)\]$/.exec(marker);
    expect(match, marker).not.toBeNull();
    expect(follow(kept, { id: match![1]!, path: match![2]! })).toBe(
      (kept[2] as { raw: string }).raw,
    );
  });
});

import type { JsonObject } from '@mcp-agent/core';
import { decodedBytes } from './describe-blob.js';
import type { ImageLimits } from './envelope-limits.js';
import { formatJsonPath, type PathSegment } from './json-path.js';

/** An image a model is shown beside an observation: base64 data and its (checked) MIME type. */
export interface ObservationImage {
  /** `image/png`, `image/jpeg`, `image/gif` or `image/webp`, as the data's first bytes say. */
  readonly mimeType: string;
  /** Base64, as the server sent it. */
  readonly data: string;
  /** Where the image block is in the kept result (`[1]`, `content[0]`); empty for the root. */
  readonly path: string;
}

/** The image types both model APIs read. */
export const MODEL_IMAGE_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
];

/**
 * Chooses the images of one observation that go to the model, in order, within the limits, and
 * says of every media block whether it was attached and, when not, why. An API refuses the whole
 * request for an image whose bytes are not the type it is declared as, so the type is read from
 * the data's first bytes; data of no type models read is never attached.
 */
export class ImageAttacher {
  readonly images: ObservationImage[] = [];
  #bytes = 0;

  constructor(readonly limits: ImageLimits) {}

  /**
   * The fields added to the description of `block` (an MCP media block: image, audio, binary
   * resource) at `path`. A binary resource of an `image/` type counts as an image.
   */
  annotate(block: JsonObject, path: readonly PathSegment[]): JsonObject {
    if (block.type === 'audio')
      return { shown: 'no: the model reads no audio; code (run_code) receives its data' };
    // A binary resource (a read resource, an embedded one) is shown when it is an image.
    const resource = block.type === 'resource' ? (block.resource as JsonObject) : undefined;
    const declared = String((resource ?? block).mimeType ?? 'unknown');
    if (block.type !== 'image' && !(resource !== undefined && declared.startsWith('image/')))
      return {};
    const data = String(resource === undefined ? block.data : resource.blob);
    const bytes = decodedBytes(data);
    const mimeType = sniffImageType(data);
    if (mimeType === undefined)
      return {
        shown: `no: the data is not a PNG, JPEG, GIF or WebP image (declared ${declared})`,
      };
    if (bytes > this.limits.maxImageBytes)
      return {
        shown: `no: ${bytes} bytes is more than the ${this.limits.maxImageBytes} bytes an image may have to be shown`,
      };
    if (this.images.length >= this.limits.maxImages)
      return { shown: `no: only ${this.limits.maxImages} images of one result are shown` };
    if (this.#bytes + bytes > this.limits.maxImagesBytes)
      return {
        shown: `no: the images of one result may have ${this.limits.maxImagesBytes} bytes in all`,
      };
    this.#bytes += bytes;
    this.images.push({ mimeType, data, path: formatJsonPath(path) });
    return { shown: `yes: image ${this.images.length}, attached after this result` };
  }
}

/** The image type of base64 `data` from its magic bytes, or `undefined` for none models read. */
export function sniffImageType(data: string): string | undefined {
  const head = Buffer.from(data.slice(0, 32), 'base64');
  const ascii = head.toString('latin1');
  if (head[0] === 0x89 && ascii.slice(1, 4) === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

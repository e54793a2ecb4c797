import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { isMedia } from '@mcp-agent/execution';
import { fileProblem } from './cli-errors.js';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/gzip': 'gz',
  'text/plain': 'txt',
};

/**
 * `value` with the data of every media block (image, audio, a resource's binary `blob`) written
 * to a file and replaced by the file's path, for a person at a terminal. Files go to `out`
 * (created when missing) or, without it, to a new folder under the system's temporary folder,
 * made only when there is media; they are named `<name>-<n>.<ext>` and never overwrite a file.
 */
export function writeMediaFiles(
  value: JsonValue,
  options: { readonly name: string; readonly out?: string },
): { value: JsonValue; files: string[] } {
  const files: string[] = [];
  let dir: string | undefined;
  const folder = (): string => {
    if (dir !== undefined) return dir;
    try {
      if (options.out === undefined) {
        dir = mkdtempSync(join(tmpdir(), 'mcp-agent-media-'));
      } else {
        dir = resolve(options.out);
        mkdirSync(dir, { recursive: true });
      }
    } catch (error) {
      throw fileProblem(options.out ?? tmpdir(), error);
    }
    return dir;
  };
  const write = (base64: string, mimeType: string): string => {
    const ext = EXTENSIONS[mimeType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'bin';
    const stem = options.name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'media';
    for (let n = files.length + 1; ; n++) {
      const path = join(folder(), `${stem}-${n}.${ext}`);
      try {
        writeFileSync(path, Buffer.from(base64, 'base64'), { flag: 'wx' });
        files.push(path);
        return path;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fileProblem(path, error);
      }
    }
  };
  const visit = (node: JsonValue): JsonValue => {
    if (node === null || typeof node !== 'object') return node;
    if (isMedia(node)) return replaced(node as JsonObject, write);
    if (Array.isArray(node)) return node.map(visit);
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(node)) {
      // defineProperty keeps a "__proto__" key as data.
      Object.defineProperty(copy, key, { value: visit(item), enumerable: true, writable: true });
    }
    return copy;
  };
  return { value: visit(value), files };
}

function replaced(
  block: JsonObject,
  write: (data: string, mimeType: string) => string,
): JsonObject {
  if (block.type === 'resource') {
    const { blob, ...resource } = block.resource as JsonObject;
    const mimeType = String(resource.mimeType ?? 'application/octet-stream');
    const data = String(blob);
    return {
      ...block,
      resource: {
        ...resource,
        bytes: Buffer.byteLength(data, 'base64'),
        file: write(data, mimeType),
      },
    };
  }
  const { data, ...rest } = block;
  const mimeType = String(block.mimeType ?? 'application/octet-stream');
  return {
    ...rest,
    bytes: Buffer.byteLength(String(data), 'base64'),
    file: write(String(data), mimeType),
  };
}

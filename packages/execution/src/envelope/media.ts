import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { decodedBytes } from './describe-blob.js';
import type { PathSegment } from './json-path.js';
import type { Markers } from './markers.js';

const MEDIA_TYPES = new Set(['image', 'audio']);

/**
 * True for an MCP `image` or `audio` block with its base64 `data`, or an embedded `resource`
 * with a binary `blob`: content a model cannot read as text, kept whole for whoever can show it.
 */
export function isMedia(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.type !== 'string') return false;
  if (MEDIA_TYPES.has(record.type)) return typeof record.data === 'string';
  const resource = record.resource as Record<string, unknown> | null | undefined;
  return (
    record.type === 'resource' &&
    resource !== null &&
    typeof resource === 'object' &&
    typeof resource.blob === 'string'
  );
}

/** True when a media block sits anywhere in `value`, which serialises to JSON (has no cycle). */
export function containsMedia(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (isMedia(node)) return true;
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else for (const key in node) stack.push((node as Record<string, unknown>)[key]);
  }
  return false;
}

/**
 * `value` (which sits at `path` in a kept result) with every media block replaced by its kind,
 * MIME type, decoded size and a `read_result` pointer to the whole block. Subtrees without media
 * are shared, not copied. `annotate` adds fields to each description (whether an image is shown).
 */
export function describeMedia(
  value: JsonValue,
  markers: Markers,
  path: readonly PathSegment[] = [],
  annotate?: (block: JsonObject, path: readonly PathSegment[]) => JsonObject,
): { value: JsonValue; replaced: boolean } {
  let replaced = false;
  const at = [...path]; // one path, pushed and popped: a large result makes no copy per node
  const visit = (node: JsonValue): JsonValue => {
    if (node === null || typeof node !== 'object') return node;
    if (isMedia(node)) {
      replaced = true;
      const described = summary(node as JsonObject, markers, at);
      return annotate === undefined
        ? described
        : { ...described, ...annotate(node as JsonObject, at) };
    }
    if (Array.isArray(node)) {
      let copy: JsonValue[] | undefined;
      node.forEach((item, index) => {
        at.push(index);
        const next = visit(item);
        at.pop();
        if (next !== item) (copy ??= [...node])[index] = next;
      });
      return copy ?? node;
    }
    let copy: JsonObject | undefined;
    for (const [key, item] of Object.entries(node)) {
      at.push(key);
      const next = visit(item);
      at.pop();
      if (next !== item) {
        copy ??= { ...node };
        // defineProperty keeps a "__proto__" key as data.
        Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true });
      }
    }
    return copy ?? node;
  };
  return { value: visit(value), replaced };
}

function summary(block: JsonObject, markers: Markers, path: readonly PathSegment[]): JsonObject {
  const pointer = markers.pointer(path);
  const where: JsonObject = pointer === undefined ? {} : { read_result: pointer };
  if (block.type === 'resource') {
    const resource = block.resource as JsonObject;
    return {
      type: 'resource',
      resource: {
        uri: String(resource.uri ?? ''),
        mimeType: String(resource.mimeType ?? 'unknown'),
        bytes: decodedBytes(String(resource.blob)),
        ...where,
      },
    };
  }
  return {
    type: String(block.type),
    mimeType: String(block.mimeType ?? 'unknown'),
    bytes: decodedBytes(String(block.data)),
    ...where,
  };
}

/**
 * A request body of `bytes` spaces made as it is sent (chunked, no Content-Length), so that a
 * test or benchmark can send 100 MB to a body limit without holding it.
 */
export function streamedBody(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

// How the index's typed arrays grow (inverted-index.ts).

// An arena's next size: a quarter more, or as much more as was added since the last packing,
// whichever is larger. A build doubles its arenas (copying them at a quarter more each time was
// a fifth of a 100,000-tool build); a packed arena that gets one more server grows by a quarter
// and stays under the packing threshold.
export function nextSize(length: number, needed: number, packed: number): number {
  return Math.max(needed, Math.ceil(length * 1.25), 2 * length - packed, 64);
}

/** A copy of `array` in a new array of `size` elements (zeros past the old ones). */
export function grown<T extends Int32Array | Uint32Array | Uint8Array | Float32Array>(
  array: T,
  size: number,
  Make: new (size: number) => T,
): T {
  const next = new Make(size);
  next.set(array);
  return next;
}

// How a byte budget is shared among the parts of one value (an array's items, an object's
// fields): the arithmetic of the cut, apart from the JSON it walks (cut-to-budget.ts).

/**
 * Shares of `room` for values of `sizes`: every value gets at least its floor, and the rest is
 * poured evenly, so that small values stay whole and the large ones split what is left.
 */
export function waterFill(
  sizes: readonly number[],
  floors: readonly number[],
  room: number,
  pinned: ReadonlySet<number> = new Set(),
): number[] {
  const shareAt = (level: number) =>
    sizes.map((size, i) =>
      pinned.has(i) ? (floors[i] as number) : Math.min(size, Math.max(floors[i] as number, level)),
    );
  let low = 0;
  let high = Math.max(0, ...sizes);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sum(shareAt(mid)) <= room) low = mid;
    else high = mid - 1;
  }
  return shareAt(low);
}

/**
 * {@link waterFill}, after dropping the largest values to their floor (their marker) until every
 * value that is still cut keeps `minVisible` bytes of its own: what is shown is worth its marker.
 */
export function dropLargest(
  sizes: readonly number[],
  floors: readonly number[],
  room: number,
  minVisible: number,
): number[] {
  const largest = sizes
    .map((_, i) => i)
    .sort((a, b) => (sizes[b] as number) - (sizes[a] as number));
  const attempt = (dropped: number) => {
    const pinned = new Set(largest.slice(0, dropped));
    const shares = waterFill(sizes, floors, room, pinned);
    const worthIt = shares.every(
      (share, i) =>
        pinned.has(i) ||
        share >= (sizes[i] as number) ||
        share >= (floors[i] as number) + minVisible,
    );
    return { shares, worthIt };
  };
  let low = 0;
  let high = largest.length;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (attempt(mid).worthIt) high = mid;
    else low = mid + 1;
  }
  return attempt(low).shares;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** An hour and a day, in milliseconds: the windows of the calls and tokens quotas. */
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The key of the UTC day `now` falls in: its start, ISO 8601. */
export function dayStart(now: number): string {
  return new Date(Math.floor(now / DAY) * DAY).toISOString();
}

// Written once per hour: every tool call under a calls quota asks for it.
let lastHour = { start: Number.NaN, key: '' };

/** The key of the UTC hour `now` falls in: its start, ISO 8601. */
export function hourWindow(now: number): string {
  const start = Math.floor(now / HOUR) * HOUR;
  if (start !== lastHour.start) lastHour = { start, key: new Date(start).toISOString() };
  return lastHour.key;
}

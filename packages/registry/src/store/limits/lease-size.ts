/**
 * How many units of an allowance one process takes from the database at once (a lease): an
 * eighth of what is `available`, from 1 to `max`. Far from the limit most calls never wait on the
 * database; near it the lease shrinks to 1, so calls held unspent by one process refuse another
 * early by little. The quotas' call leases and the rate limits both take this much.
 */
export function leaseSize(available: number, max: number): number {
  return Math.min(max, Math.max(1, Math.floor(available / 8)));
}

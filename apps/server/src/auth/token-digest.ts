import { createHash } from 'node:crypto';

/** A token's SHA-256 as hex: what token files store and what sessions remember, never the token. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

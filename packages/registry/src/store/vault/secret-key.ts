import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@mcp-agent/core';

/** One AES-256 key and its id (a digest prefix, so the id reveals nothing of the key). */
export interface SecretKey {
  /** 12 hex characters, written in front of each ciphertext the key makes. */
  readonly id: string;
  /** The 32 key bytes: never log or serialise. */
  readonly key: Buffer;
}

/** The key that encrypts, and older keys that may still decrypt until rotation finishes. */
export interface Keyring {
  /** Encrypts every new secret and decrypts its own. */
  readonly current: SecretKey;
  /** Only decrypt, until `rotateSecrets` moved their secrets to `current`. */
  readonly previous: readonly SecretKey[];
}

const KEY_BYTES = 32;
// ContextForge's thresholds: 32 random bytes score about 4.8 bits per byte.
const MIN_ENTROPY_BITS_PER_BYTE = 3.5;
const WEAK_VALUES = new Set([
  'changeme',
  'change-me',
  'secret',
  'password',
  'default',
  'test',
  'key',
]);
const HOW_TO_GENERATE =
  "generate one with: node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64'))\"";

/**
 * Parses a base64 key and refuses weak ones: not exactly 32 bytes, a known default, or too
 * little entropy. `source` names where the key came from in the error.
 */
export function parseSecretKey(encoded: string, source: string): SecretKey {
  const text = encoded.trim();
  const refuse = (why: string): never => {
    throw new ConfigError(`The secret key in ${source} is unusable: ${why}; ${HOW_TO_GENERATE}.`, {
      details: { source },
    });
  };
  if (WEAK_VALUES.has(text.toLowerCase())) refuse('it is a well-known placeholder value');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) refuse('it is not base64');
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== KEY_BYTES) refuse(`it decodes to ${key.length} bytes, not ${KEY_BYTES}`);
  if (entropy(key) < MIN_ENTROPY_BITS_PER_BYTE) refuse('it has too little entropy to be random');
  return { id: keyId(key), key };
}

/** The id written in front of every ciphertext made with `key`. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('mcp-agent/key-id\0').update(key).digest('hex').slice(0, 12);
}

function entropy(bytes: Buffer): number {
  const counts = new Map<number, number>();
  for (const byte of bytes) counts.set(byte, (counts.get(byte) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / bytes.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Options of {@link loadKeyring}. */
export interface LoadKeyringOptions {
  /** Environment to read `MCP_AGENT_SECRET_KEY` and `MCP_AGENT_SECRET_KEY_PREVIOUS` from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The home folder, where the embedded default may keep `secret.key`. */
  readonly home: string;
  /** `postgres` refuses to start without an explicit key. */
  readonly dialect: 'sqlite' | 'postgres';
}

/** The keyring, and whether a key file was created just now (the caller should say so). */
export interface LoadedKeyring {
  /** The keys to give the vault. */
  readonly keyring: Keyring;
  /** The key file's path when this call created it: tell the operator to back it up. */
  readonly createdKeyFile?: string;
}

/**
 * Loads the keyring. `MCP_AGENT_SECRET_KEY` (base64, 32 bytes) wins; otherwise the embedded
 * SQLite default reads `<home>/secret.key`, creating it (mode 0600) on first run. PostgreSQL
 * mode refuses to start without an explicit key, because a key file on one node does not
 * scale out. `MCP_AGENT_SECRET_KEY_PREVIOUS` (comma-separated) lists keys that may still
 * decrypt while `rotateSecrets` re-encrypts.
 *
 * @throws ConfigError (`CONFIG_INVALID`) when a key is weak (not 32 bytes of base64, a
 *   placeholder, too little entropy), when PostgreSQL has no explicit key, or when the key file
 *   is readable by other users; the message says how to generate a key or fix the mode.
 */
export function loadKeyring(options: LoadKeyringOptions): LoadedKeyring {
  const env = options.env ?? process.env;
  const previous = (env.MCP_AGENT_SECRET_KEY_PREVIOUS ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, index) => parseSecretKey(part, `MCP_AGENT_SECRET_KEY_PREVIOUS[${index}]`));
  const explicit = env.MCP_AGENT_SECRET_KEY;
  if (explicit !== undefined && explicit !== '') {
    return { keyring: { current: parseSecretKey(explicit, 'MCP_AGENT_SECRET_KEY'), previous } };
  }
  if (options.dialect === 'postgres') {
    throw new ConfigError(
      `PostgreSQL mode needs an explicit MCP_AGENT_SECRET_KEY (32 random bytes, base64); ${HOW_TO_GENERATE}, and give every node the same key.`,
    );
  }
  const file = join(options.home, 'secret.key');
  let createdKeyFile: string | undefined;
  try {
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new ConfigError(
        `${file} is readable by other users (mode ${mode.toString(8)}); run: chmod 600 ${file}`,
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    try {
      // 'wx' fails if another process created the file first; then we read theirs.
      writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
      createdKeyFile = file;
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
    }
  }
  const current = parseSecretKey(readFileSync(file, 'utf8'), file);
  return { keyring: { current, previous }, ...(createdKeyFile ? { createdKeyFile } : {}) };
}

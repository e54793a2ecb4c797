/** The envelope's limits; every one can be set per call. */
export interface EnvelopeLimits {
  /** Strings longer than this are cut; default 500 characters. */
  readonly maxStringLength: number;
  /** Arrays longer than this are cut; default 20 items. */
  readonly maxArrayItems: number;
  /** Objects nested deeper than this are summarised; default 3. */
  readonly maxDepth: number;
  /** The whole observation as JSON, in UTF-8 bytes; default 8,000 (about 2,000 tokens). */
  readonly maxTotalBytes: number;
}

/** The defaults of {@link EnvelopeLimits}. */
export const DEFAULT_ENVELOPE_LIMITS: EnvelopeLimits = Object.freeze({
  maxStringLength: 500,
  maxArrayItems: 20,
  maxDepth: 3,
  maxTotalBytes: 8_000,
});

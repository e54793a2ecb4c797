/** The envelope's budget; it can be set per call. */
export interface EnvelopeLimits {
  /**
   * What one observation may cost a model, in tokens as {@link estimateTokens} counts them;
   * default 8,000 (see the package README for the measurements behind it), at least 100.
   */
  readonly maxTokens: number;
}

/**
 * What images one observation may show a model (see the package README for why): decoded bytes
 * of one image, how many images, and their bytes in all. Images past these are described.
 */
export interface ImageLimits {
  /** Decoded bytes of one image; default 1,000,000. */
  readonly maxImageBytes: number;
  /** Images of one observation; default 4. */
  readonly maxImages: number;
  /** Decoded bytes of the images of one observation; default 2,000,000. */
  readonly maxImagesBytes: number;
}

/** The defaults of {@link EnvelopeLimits}. */
export const DEFAULT_ENVELOPE_LIMITS: EnvelopeLimits = Object.freeze({ maxTokens: 8_000 });

/** The defaults of {@link ImageLimits}. */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = Object.freeze({
  maxImageBytes: 1_000_000,
  maxImages: 4,
  maxImagesBytes: 2_000_000,
});

/** The smallest budget honoured: room for a marker that says where the whole result is. */
export const MIN_ENVELOPE_TOKENS = 100;

/**
 * UTF-8 bytes of JSON per token. Real tokenizers (o200k, cl100k) give 3.2–4.4 characters of
 * JSON or code per token and about one token per CJK character (3 bytes), so dividing bytes
 * by 3 errs on the side of a smaller observation in every script.
 */
export const BYTES_PER_TOKEN = 3;

/** An upper estimate of the tokens of `json`: its UTF-8 bytes divided by 3. */
export function estimateTokens(json: string): number {
  return Math.ceil(Buffer.byteLength(json, 'utf8') / BYTES_PER_TOKEN);
}

/** The byte budget of `limits` (defaults filled in, raised to the minimum). */
export function budgetBytes(limits: Partial<EnvelopeLimits> = {}): number {
  const tokens = limits.maxTokens ?? DEFAULT_ENVELOPE_LIMITS.maxTokens;
  const usable = Number.isFinite(tokens) ? Math.floor(tokens) : DEFAULT_ENVELOPE_LIMITS.maxTokens;
  return Math.max(MIN_ENVELOPE_TOKENS, usable) * BYTES_PER_TOKEN;
}

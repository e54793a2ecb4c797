/** Options of one {@link TextEmbedder.embed} call. */
export interface EmbedOptions {
  /** Aborts the call (the caller's cancellation; the embedder adds its own timeout). */
  readonly signal?: AbortSignal;
}

/**
 * Turns texts into vectors whose closeness says how alike their meanings are. The search's
 * optional semantic half: tools and queries are embedded by the same model and compared by
 * cosine similarity.
 */
export interface TextEmbedder {
  /**
   * Which model (and, where it matters, which size of vector) makes the vectors: cached vectors
   * are keyed by it, so two embedders with the same id must give the same vectors.
   */
  readonly model: string;
  /** One vector per text, in order; throws when the model cannot answer (nothing partial). */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}

/**
 * The input of a tool use whose arguments did not parse (an OpenAI-compatible endpoint sends
 * them as a JSON string, and a model may write broken JSON). The session refuses it with a
 * message naming the parse error, so the model can send the call again; adapters send `raw`
 * back to the endpoint as the model wrote it.
 */
export class InvalidToolInput {
  constructor(
    /** The arguments as the model wrote them. */
    readonly raw: string,
    /** Why they did not parse. */
    readonly reason: string,
  ) {}

  /** What the trajectory and events show: the start of what the model wrote. */
  toJSON(): {
    /** The first 1,000 characters the model wrote. */
    invalid_json: string;
  } {
    return { invalid_json: this.raw.slice(0, 1_000) };
  }
}

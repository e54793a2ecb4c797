/**
 * A session's described tools shared with its other copies: a gateway session that several
 * processes serve describes a tool on one and calls it on another. The session tells its
 * surface what it described here, and asks for what was described elsewhere only when a call
 * names a tool it does not know (and before run_code), so a call of a known tool reads nothing.
 */
export interface SharedDescribed {
  /**
   * Tools just described in this copy (each once), for the surface to record: describe_tools
   * answers once this settled, so the client's next call finds them on any copy. A rejection
   * is ignored (the tools stay described in this copy).
   */
  described(toolIds: readonly string[]): Promise<void>;
  /** Every tool described in the session on any copy, read again; may reject (then ignored). */
  load(): Promise<Iterable<string>>;
}

/** Adds what `shared` says was described anywhere to `described`; never rejects. */
export async function loadShared(shared: SharedDescribed, described: Set<string>): Promise<void> {
  try {
    for (const toolId of await shared.load()) described.add(toolId);
  } catch {
    // Unreadable now: the session goes on with what it knows (a call is refused as undescribed).
  }
}

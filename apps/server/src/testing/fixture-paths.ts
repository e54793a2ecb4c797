// The harnesses launch fixture MCP servers that live in the workspace's private test-support
// package; a published entry cannot import it, so the caller hands their paths in.

/** Paths of the fixture servers' node entry points (test-support's `serverFixtures` fits). */
export interface FixturePaths {
  /** Tools and results from a JSON script file given as its argument. */
  readonly scripted: string;
  /** Misbehaviour chosen by its first argument (`boot-needs-file <path>` fails to start). */
  readonly misbehaving: string;
}

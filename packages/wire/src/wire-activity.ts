/** How often each part of the wire ran in this process (see {@link wireActivity}). */
export interface WireActivity {
  /** `tools/call` requests answered on a server call lane (`openCallLane`). */
  readonly callLaneCalls: number;
  /** Requests sent on a client request lane (`RequestLane`). */
  readonly requestLaneRequests: number;
  /** Request lanes opened on a client transport. */
  readonly requestLanes: number;
  /** Stdio line transports started (`StdioLineTransport`). */
  readonly stdioLineTransports: number;
  /** Child processes started by `ProcessTransport`. */
  readonly processTransports: number;
}

// Plain counters, one add each where a part runs: what proves `MCP_AGENT_WIRE=sdk` really turns
// the lanes off (a test reads them before and after), at no measurable cost per call.
const counts = {
  callLaneCalls: 0,
  requestLaneRequests: 0,
  requestLanes: 0,
  stdioLineTransports: 0,
  processTransports: 0,
};

/** Adds one to a counter of {@link wireActivity}. */
export function countWire(part: keyof WireActivity): void {
  counts[part] += 1;
}

/**
 * A snapshot of how often each part of the wire ran in this process since it started: with
 * `wire: 'sdk'` none of them moves.
 */
export function wireActivity(): WireActivity {
  return { ...counts };
}

import { PolicyDeniedError, type AgentContext } from '@mcp-agent/core';
import type { Caller, DispatchLink, ToolCall } from '../tool-call.js';

/** What a rule decides. */
export type PolicyDecision = 'allow' | 'deny' | 'approve';

/** Annotations a rule can key on. */
export type AnnotationHint =
  'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';

/** The policy, as data. Patterns are a tool id, `server.*`, or `*`. */
export interface PolicyRules {
  /** Decision per tool pattern; the most specific pattern wins. */
  readonly tools?: Readonly<Record<string, PolicyDecision>>;
  /**
   * Decision for tools whose annotation is `true`. Annotations come from untrusted servers, so
   * they can only add restrictions (deny, approve), never lift a tool rule's deny or approve.
   */
  readonly annotations?: Readonly<
    Partial<Record<AnnotationHint, Exclude<PolicyDecision, 'allow'>>>
  >;
  /** Which callers may use a tool pattern: the model directly, sandboxed code, or both. */
  readonly callers?: Readonly<Record<string, readonly Caller[]>>;
}

/** The host's approval callback: resolve true to let the call through. */
export type Approver = (ctx: AgentContext, call: ToolCall) => Promise<boolean>;

const RANK: Record<PolicyDecision, number> = { allow: 0, approve: 1, deny: 2 };

/** The policy link: allow, deny, or ask the host's approver, per tool, annotation and caller. */
export function policyLink(rules: PolicyRules, approve?: Approver): DispatchLink {
  return async (ctx, call, next) => {
    const callers = match(rules.callers, call.toolId);
    if (callers !== undefined && !callers.includes(call.caller)) {
      throw new PolicyDeniedError(
        `Tool ${call.toolId} may not be called from ${call.caller === 'code' ? 'sandboxed code' : 'the model directly'}; allowed: ${callers.join(', ')}.`,
        { details: { toolId: call.toolId, caller: call.caller, reason: 'caller_not_allowed' } },
      );
    }
    let decision: PolicyDecision = match(rules.tools, call.toolId) ?? 'allow';
    for (const [hint, outcome] of Object.entries(rules.annotations ?? {}) as [
      AnnotationHint,
      PolicyDecision,
    ][]) {
      if (call.spec.annotations?.[hint] === true && RANK[outcome] > RANK[decision])
        decision = outcome;
    }
    if (decision === 'deny') {
      throw new PolicyDeniedError(`Tool ${call.toolId} is denied by policy.`, {
        details: { toolId: call.toolId, reason: 'denied' },
      });
    }
    if (decision === 'approve') {
      const approved = approve === undefined ? false : await approve(ctx, call);
      if (!approved) {
        throw new PolicyDeniedError(
          approve === undefined
            ? `Tool ${call.toolId} requires approval, and no approver is configured.`
            : `Tool ${call.toolId} requires approval, and it was not approved.`,
          { details: { toolId: call.toolId, reason: 'approval_required' } },
        );
      }
    }
    return next(call);
  };
}

// Exact id, then "server.*", then "*".
function match<T>(table: Readonly<Record<string, T>> | undefined, toolId: string): T | undefined {
  if (table === undefined) return undefined;
  const server = toolId.slice(0, toolId.indexOf('.'));
  return table[toolId] ?? table[`${server}.*`] ?? table['*'];
}

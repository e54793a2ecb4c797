import { PolicyDeniedError, type AgentContext } from '@mcp-agent/core';
import type { DispatchLink } from '../tool-call.js';

/** Where the approved content hash of each tool is kept, per tenant. */
export interface ToolApprovals {
  /** The content hash the tenant approved for `toolId`, or `undefined` before its first use. */
  approvedHash(ctx: AgentContext, toolId: string): Promise<string | undefined>;
  /** Records `contentHash` (description and schema) as the one the tenant approved. */
  approve(ctx: AgentContext, toolId: string, contentHash: string): Promise<void>;
}

/** An in-memory {@link ToolApprovals}. */
export class MemoryToolApprovals implements ToolApprovals {
  readonly #hashes = new Map<string, string>();

  async approvedHash(ctx: AgentContext, toolId: string): Promise<string | undefined> {
    return this.#hashes.get(`${ctx.userId}\u0000${toolId}`);
  }

  async approve(ctx: AgentContext, toolId: string, contentHash: string): Promise<void> {
    this.#hashes.set(`${ctx.userId}\u0000${toolId}`, contentHash);
  }
}

/**
 * Holds a tool whose description, schema or annotations changed since it was approved (a rug
 * pull): the first version seen is approved (trust on first use), a later different hash is
 * refused until the host approves it again.
 */
export function changedToolLink(approvals: ToolApprovals): DispatchLink {
  return async (ctx, call, next) => {
    // Only tools have a description and schema that can change under the user.
    if ((call.operation ?? 'tools/call') !== 'tools/call') return next(call);
    const approved = await approvals.approvedHash(ctx, call.toolId);
    if (approved === undefined) await approvals.approve(ctx, call.toolId, call.contentHash);
    else if (approved !== call.contentHash) {
      throw new PolicyDeniedError(
        `Tool ${call.toolId} changed since it was approved (its description, schema or annotations differ); it is held until approved again.`,
        {
          details: {
            toolId: call.toolId,
            reason: 'changed_since_approval',
            approvedHash: approved,
            currentHash: call.contentHash,
          },
        },
      );
    }
    return next(call);
  };
}

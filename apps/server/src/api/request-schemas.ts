// The request bodies of the HTTP API: each route parses its body with its schema here, and the
// OpenAPI document describes the body from the same schema, so the two cannot drift apart.
import { z } from 'zod';
import { taskContextSchema } from '@mcp-agent/agent';

/** `POST /v1/tasks`. */
export const taskBody = z.strictObject({
  task: z.string().trim().min(1).max(20_000),
  threadId: z.string().min(1).max(200).optional(),
  allowServers: z.array(z.string()).max(100).optional(),
  budget: z.record(z.string(), z.number()).optional(),
  context: taskContextSchema.optional(),
});

/**
 * `POST /v1/servers`: one server, the canonical shape or an mcpServers entry with its id; the
 * route then reads it with core's `parseServerEntry`, which names what is wrong.
 */
export const serverBody = z
  .record(z.string(), z.unknown())
  .describe(
    'One server: {id, transport: "stdio", command, args?, env?, cwd?}, {id, transport: "streamable-http" | "sse" | "auto", url, headers?}, or an mcpServers entry with its id ({id, command, args} or {id, url}) whose transport is inferred.',
  );

import { safeParse, type AnyObjectSchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

type InstalledHandler = (request: { params?: unknown }, extra: unknown) => Promise<unknown>;

/** How many of a refused request's problems the error names (the count of the rest follows). */
const MAX_ISSUES = 5;

/**
 * Makes the handler `server` just installed for `schema`'s method answer a request its schema
 * refuses with -32602 (invalid params) naming each field and what was expected, where the SDK's
 * `Protocol` throws the schema's `ZodError` as it is: -32603 (internal error) and the error's
 * JSON as the message. Only that throw is mapped: it is synchronous (the handler itself runs in
 * a promise) and the request fails the schema again, so a failure inside a handler keeps its own
 * code. Costs nothing on a request the schema accepts. The SDK keeps its handlers in a private
 * map (`_requestHandlers`, SDK 1.32.2); if it is gone, nothing is changed and the gateway's
 * tests (the wire differential's "tools/call invalid params") fail.
 */
export function answerInvalidParams(server: object, schema: AnyObjectSchema): void {
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  const method = (schema as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
  if (!(handlers instanceof Map) || typeof method !== 'string') return;
  const installed = handlers.get(method) as InstalledHandler | undefined;
  if (installed === undefined) return;
  handlers.set(method, (request: { params?: unknown }, extra: unknown) => {
    try {
      return installed(request, extra);
    } catch (error) {
      const issues = (error as { issues?: unknown }).issues;
      if (
        // zod's classic ZodError or its core's $ZodError, as the SDK's parse throws it.
        !/ZodError$/.test((error as Error).name) ||
        !Array.isArray(issues) ||
        safeParse(schema, request).success
      )
        throw error;
      throw invalidParams(method, issues as Issue[]);
    }
  });
}

interface Issue {
  readonly path?: readonly PropertyKey[];
  readonly message?: string;
}

/** A -32602 answer: the SDK's `Protocol` sends a thrown error's `code` and `message` as they are. */
class InvalidParamsError extends Error {
  override readonly name = 'InvalidParamsError';
  readonly code = ErrorCode.InvalidParams;
}

function invalidParams(method: string, issues: readonly Issue[]): InvalidParamsError {
  const named = issues.slice(0, MAX_ISSUES).map(({ path = [], message = 'invalid' }) => {
    const field = path.length === 0 ? 'the request' : path.map(String).join('.');
    return `${field}: ${message.replace(/^Invalid input: /, '')}`;
  });
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  return new InvalidParamsError(
    `Invalid params of ${method}: ${named.join('; ')}${more}. Correct those fields and send the request again.`,
  );
}

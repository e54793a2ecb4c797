import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutionError, type JsonValue, type ToolId, clip } from '@mcp-agent/core';
import { parseJsonText } from '@mcp-agent/execution';
import type { ResolvedTool } from './tool-resolver.js';
import type { SchemaValidator } from './schema-validator.js';

const MAX_ERROR_TEXT = 1_000;

/**
 * Checks an MCP result before anyone gets it: `isError` results become a `ToolExecutionError`
 * with the server's text; `structuredContent` must match the tool's `outputSchema` when it has
 * one (and must be there). The data is then `structuredContent` when sent, else the content as
 * its caller reads it ({@link modelContent}, {@link wholeContent}).
 */
export function checkToolResult(
  toolId: ToolId,
  result: CallToolResult,
  tool: ResolvedTool,
  validator: SchemaValidator,
): void {
  if (result.isError === true) {
    const text = textOf(result) || 'the server reported an error without a message';
    throw new ToolExecutionError(`${toolId} failed: ${clip(text, MAX_ERROR_TEXT)}`, {
      details: { toolId, serverError: clip(text, MAX_ERROR_TEXT) },
    });
  }
  const validate = tool.validateOutput;
  if (validate !== undefined) {
    if (validate instanceof Error) {
      throw new ToolExecutionError(
        `${toolId} has an output schema that does not compile: ${validate.message}`,
        { details: { toolId } },
      );
    }
    if (result.structuredContent === undefined) {
      throw new ToolExecutionError(
        `${toolId} declares an output schema but returned no structured content.`,
        { details: { toolId } },
      );
    }
    const issues = validator.issues(validate, result.structuredContent);
    if (issues.length > 0) {
      throw new ToolExecutionError(
        `${toolId} returned a result that violates its output schema: ${issues.map((i) => `${i.path} expected ${i.expected}, got ${i.got}`).join('; ')}.`,
        { details: { toolId, issues: issues.map((i) => ({ ...i })) } },
      );
    }
  }
}

/**
 * What a model reads of a result without `structuredContent` (before the envelope shapes it):
 * text-only content becomes its text, other content stays the server's blocks.
 */
export function modelContent(result: CallToolResult): unknown {
  const content = result.content ?? [];
  if (content.length > 0 && content.every((block) => block.type === 'text')) return textOf(result);
  return content;
}

/**
 * What code gets of a result without `structuredContent`: each text block that is a JSON object
 * or array becomes its value (other text stays text), media and resources stay the server's
 * blocks with their data (`{type: 'image', mimeType, data}`). One block gives its value alone;
 * several plain texts are joined by line breaks, as the model reads them; anything else is the
 * list of values.
 */
export function wholeContent(content: CallToolResult['content']): JsonValue {
  const values = content.map((block) =>
    block.type === 'text' ? parseJsonText(block.text) : (block as JsonValue),
  );
  if (values.length === 1) return values[0] as JsonValue;
  if (values.length > 0 && values.every((value) => typeof value === 'string')) {
    return values.join('\n');
  }
  return values;
}

function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

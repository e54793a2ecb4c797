import { formatToolId, type ToolSpec } from '@mcp-agent/core';
import { READ_THE_REST, verbatimText } from './description-text.js';
import { parameterRows, type DeepViewParameter } from './parameter-list.js';
import { outputFields } from './schema-summary.js';
import { schemaShape, type Shape } from './schema-shape.js';
import { renderType } from './type-signature.js';

/** A type the call signature uses by name (a cycle, or a `$defs` entry used more than once). */
export interface DeepViewType {
  /** The name the signature uses. */
  readonly name: string;
  /** Its definition, as the call signature writes types. */
  readonly type: string;
  /** Its fields, with paths relative to a value of this type. */
  readonly parameters: readonly DeepViewParameter[];
}

/** One tool as the model reads it before calling it. */
export interface DeepViewTool {
  /** The tool's id. */
  readonly tool_id: string;
  /** The server's description, verbatim; cut only past a generous budget, and then marked. */
  readonly description: string;
  /** A TypeScript-like signature of the whole input: nested objects, unions, literals, defaults. */
  readonly call_signature: string;
  /** Every field at every depth, with its type, whether it is required, description and constraints. */
  readonly parameters: readonly DeepViewParameter[];
  /** Named types used by the signature and rows; absent when there are none. */
  readonly types?: readonly DeepViewType[];
  /** The fields of its output, when it declares an output schema; cut to a budget. */
  readonly output_fields: readonly string[];
  /** What was cut and how to read the rest; absent when nothing was. */
  readonly notes?: readonly string[];
}

/** Options of {@link describeTool}. */
export interface DeepViewOptions {
  /** Lift every budget: whole descriptions, every enum value, every row and output field. */
  readonly full?: boolean;
}

/**
 * Budgets of the deep view, chosen from the real catalogs (see the package README): none of
 * the 818 tools of `real-mcp-tools` reaches any of them.
 */
export const DEEP_VIEW_BUDGETS = {
  /** Characters of a tool description (the longest real one: 3,866). */
  description: 6_000,
  /** Characters of one field description (the longest real one: 1,721). */
  fieldDescription: 2_000,
  /** Characters of one row's enum list as JSON (the longest real one: 4,924). */
  enumCharacters: 6_000,
  /** Rows of the parameter list, named types included. */
  rows: 400,
  /** Characters of the call signature before deeper objects are written `{…}`. */
  signature: 4_000,
  /** Output field paths. */
  outputFields: 40,
} as const;

/**
 * The deep view of one tool, built from its whole input schema: `$ref`s resolved (cycles by
 * name), unions, nullables, tuples, literals, formats, defaults and bounds, as a call signature
 * and as a parameter list. Descriptions are the server's own characters.
 */
export function describeTool(tool: ToolSpec, options: DeepViewOptions = {}): DeepViewTool {
  const full = options.full === true;
  const budget = (value: number) => (full ? Infinity : value);
  const rowBudgets = {
    description: budget(DEEP_VIEW_BUDGETS.fieldDescription),
    enumCharacters: budget(DEEP_VIEW_BUDGETS.enumCharacters),
  };
  const shape = schemaShape(tool.inputSchema);
  const notes: string[] = [];
  let rowsLeft = budget(DEEP_VIEW_BUDGETS.rows);
  let rowsCut = 0;
  const take = (rows: DeepViewParameter[]) => {
    const kept = rows.slice(0, Math.max(0, rowsLeft));
    rowsCut += rows.length - kept.length;
    rowsLeft -= kept.length;
    return kept;
  };
  const parameters = take(parameterRows(shape.root, rowBudgets));
  const types = [...shape.types].map(([name, type]) => ({
    name,
    type: renderType(type),
    parameters: take(parameterRows(type, rowBudgets)),
  }));
  if (rowsCut > 0) notes.push(`${rowsCut} more parameter rows not listed; ${READ_THE_REST}.`);

  let signature = argumentsOf(shape.root, undefined);
  for (let depth = 6; signature.length > budget(DEEP_VIEW_BUDGETS.signature) && depth > 0; depth--)
    signature = argumentsOf(shape.root, depth);
  if (signature !== argumentsOf(shape.root, undefined))
    notes.push(
      'Objects nested deeper in the call signature are written {…}: the parameter rows list their fields.',
    );
  if (shape.omitted > 0)
    notes.push(
      `The input schema is too large to convert whole (${shape.omitted} parts shown as any); the server validates the rest.`,
    );

  return {
    tool_id: formatToolId(tool.serverId, tool.name),
    description: verbatimText(
      tool.description || tool.title || '',
      budget(DEEP_VIEW_BUDGETS.description),
    ),
    call_signature: `${tool.id}(${signature})`,
    parameters,
    ...(types.length === 0 ? {} : { types }),
    output_fields: outputFields(tool.outputSchema, budget(DEEP_VIEW_BUDGETS.outputFields)),
    ...(notes.length === 0 ? {} : { notes }),
  };
}

// A tool without parameters takes `{}`; `object` alone would read as "any object".
function argumentsOf(root: Shape, maxDepth: number | undefined): string {
  if (root.kind === 'primitive' && root.type === 'object') return '{}';
  if (root.kind === 'any') return '{}';
  return renderType(root, maxDepth === undefined ? {} : { maxDepth });
}

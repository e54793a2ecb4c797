import { formatToolId, type JsonValue, type ToolSpec } from '@mcp-agent/core';
import {
  outputFields,
  summarizeParameters,
  trimText,
  type ParameterSummary,
} from './schema-summary.js';

/** One tool as the model reads it before calling it. */
export interface DeepViewTool {
  readonly tool_id: string;
  readonly description: string;
  readonly input_params: {
    readonly required: readonly Omit<ParameterSummary, 'required'>[];
    readonly optional: readonly Omit<ParameterSummary, 'required'>[];
  };
  readonly output_fields: readonly string[];
  readonly call_signature: string;
}

const MAX_DESCRIPTION = 400;

/** The debloated spec of one tool: no raw docstrings, source paths or verbose schemas. */
export function describeTool(tool: ToolSpec): DeepViewTool {
  const params = summarizeParameters(tool.inputSchema);
  const strip = ({ required: _required, ...rest }: ParameterSummary) => rest;
  const signature = params
    .map(
      (p) =>
        `${p.name}${p.required ? '' : '?'}: ${p.type}${p.default === undefined ? '' : ` = ${short(p.default)}`}`,
    )
    .join(', ');
  return {
    tool_id: formatToolId(tool.providerId, tool.name),
    description: trimText(tool.description || tool.title || '', MAX_DESCRIPTION),
    input_params: {
      required: params.filter((p) => p.required).map(strip),
      optional: params.filter((p) => !p.required).map(strip),
    },
    output_fields: outputFields(tool.outputSchema),
    call_signature: `${tool.id}({ ${signature} })`.replace('({  })', '({})'),
  };
}

function short(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 30 ? `${text.slice(0, 29)}…` : text;
}

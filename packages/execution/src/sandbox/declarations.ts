import { clip } from '@mcp-agent/core';
import type { JsonObject, JsonValue } from '@mcp-agent/core';
import { nameTools, type NamedTool } from './tool-identifiers.js';

/** A tool as the declaration generator needs it. */
export interface DeclaredTool {
  /** The server's id. */
  readonly server: string;
  /** The tool's name on that server. */
  readonly name: string;
  /** Becomes the declaration's doc comment, cut short. */
  readonly description?: string;
  /** Becomes the type of the argument. */
  readonly inputSchema?: JsonObject;
  /** Becomes the type of the result; `unknown` when absent. */
  readonly outputSchema?: JsonObject;
}

const MAX_DOC = 400;
const MAX_DEPTH = 4;

/**
 * TypeScript declarations of `tools` for the model to read before writing code:
 * `declare const tools: { github: { create_issue(args: {...}): Promise<...> } }`. Names are the
 * sandbox's safe identifiers; where a server or tool name is not one, the doc comment says how
 * to reach it by its exact name too (`tools["my-server"]["get-item"]`); descriptions become doc comments with `*\/`, control and
 * invisible characters neutralised, so a hostile description cannot close the comment or smuggle
 * code; property names that are not identifiers are quoted with JSON escaping.
 */
export function generateDeclarations(tools: readonly DeclaredTool[]): string {
  const named = nameTools(tools);
  const byServer = new Map<string, { tool: DeclaredTool; named: NamedTool }[]>();
  named.forEach((entry, index) => {
    const list = byServer.get(entry.serverIdentifier) ?? [];
    list.push({ tool: tools[index] as DeclaredTool, named: entry });
    byServer.set(entry.serverIdentifier, list);
  });
  const lines = ['declare const tools: {'];
  for (const [server, entries] of byServer) {
    lines.push(`  ${server}: {`);
    for (const { tool, named: entry } of entries) {
      const id = entry.toolIdentifier;
      const also = entry.serverByName || entry.toolByName ? ` (also ${exactAccess(entry)})` : '';
      lines.push(
        docComment(`${tool.server}.${tool.name}${also}: ${tool.description ?? ''}`, '    '),
      );
      const output = tool.outputSchema === undefined ? 'unknown' : typeOf(tool.outputSchema, 0);
      lines.push(
        `    ${id}(args: ${typeOf(tool.inputSchema ?? { type: 'object' }, 0)}): Promise<${output}>;`,
      );
    }
    lines.push('  };');
  }
  lines.push('};');
  return lines.join('\n');
}

// How code reaches a tool by its exact names, where they differ from the identifiers:
// tools["my-server"]["get-item"].
function exactAccess(tool: NamedTool): string {
  const key = (name: string) =>
    /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
  return `tools${key(tool.serverByName ? tool.server : tool.serverIdentifier)}${key(tool.toolByName ? tool.name : tool.toolIdentifier)}`;
}

// Control, zero-width and bidirectional-override characters: invisible to a reader, so they go.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2064\uFEFF]/g;

function docComment(text: string, indent: string): string {
  const clean = text.replace(INVISIBLE, '').replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
  const cut = clip(clean, MAX_DOC);
  return `${indent}/** ${cut} */`;
}

function typeOf(schema: JsonValue | undefined, depth: number): string {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || depth > MAX_DEPTH)
    return 'unknown';
  if (Array.isArray(schema.enum))
    return (
      schema.enum
        .slice(0, 20)
        .map((v) => JSON.stringify(v))
        .join(' | ') || 'never'
    );
  if (Array.isArray(schema.anyOf ?? schema.oneOf)) {
    return (
      ((schema.anyOf ?? schema.oneOf) as JsonValue[])
        .map((s) => typeOf(s, depth + 1))
        .join(' | ') || 'unknown'
    );
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${typeOf(schema.items, depth + 1)}>`;
    case 'object':
    case undefined: {
      const properties = schema.properties;
      if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) {
        return schema.type === 'object' ? 'Record<string, unknown>' : 'unknown';
      }
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      const fields = Object.entries(properties).map(([key, value]) => {
        const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
        const description = (value as { description?: unknown } | null)?.description;
        const doc =
          typeof description === 'string' && description !== ''
            ? `${docComment(description, '')} `
            : '';
        return `${doc}${name}${required.has(key) ? '' : '?'}: ${typeOf(value, depth + 1)}`;
      });
      return fields.length === 0 ? 'Record<string, unknown>' : `{ ${fields.join('; ')} }`;
    }
    default:
      return 'unknown';
  }
}

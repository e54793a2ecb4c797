import type { ModelTool } from '../model/model-client.js';

/** The commands the model may use; never the tenant's own tool definitions. */
export type MetaToolName =
  'search_tools' | 'describe_tools' | 'call_tool' | 'run_code' | 'query_connector';

const SEARCH: ModelTool = {
  name: 'search_tools',
  description:
    'Step 1. Search the tools of the connected servers by what you want to do, in plain words ("create a GitHub issue"). Returns tool ids with one-line descriptions. Search before describing or calling anything.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the tool should do.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 20,
        description: 'Results to return (default 5).',
      },
      providers: { type: 'array', items: { type: 'string' }, description: 'Only these servers.' },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

const DESCRIBE: ModelTool = {
  name: 'describe_tools',
  description:
    'Step 2. Read the parameters, output fields and call signature of tools found by search_tools. A tool can only be called (directly or from code) after it was described in this task.',
  inputSchema: {
    type: 'object',
    properties: {
      tool_ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 10 },
    },
    required: ['tool_ids'],
    additionalProperties: false,
  },
};

const CALL: ModelTool = {
  name: 'call_tool',
  description:
    'Step 3a. Call one described tool with arguments that match its parameters. Returns its (possibly shortened) result.',
  inputSchema: {
    type: 'object',
    properties: {
      tool_id: { type: 'string', description: 'A described tool id, "<server>.<tool>".' },
      arguments: { type: 'object', description: 'The tool arguments.' },
    },
    required: ['tool_id', 'arguments'],
    additionalProperties: false,
  },
};

const RUN_CODE: ModelTool = {
  name: 'run_code',
  description:
    'Step 3b. Run JavaScript (or TypeScript) that calls several described tools and returns only what matters: an async function body, "return" gives the result. Call tools as `await tools.<server>.<tool>(args)`; characters other than letters, digits, _ and $ in names become _. No network, timers or modules; console.log is captured.',
  inputSchema: {
    type: 'object',
    properties: {
      code: { type: 'string' },
      language: { type: 'string', enum: ['javascript', 'typescript'] },
    },
    required: ['code'],
    additionalProperties: false,
  },
};

const QUERY_CONNECTOR: ModelTool = {
  name: 'query_connector',
  description:
    "Hand a sub-task to an assistant that works only with one server's tools and answers in words. Use it for a self-contained question about one server.",
  inputSchema: {
    type: 'object',
    properties: {
      connector_id: { type: 'string', description: 'The server id.' },
      query: { type: 'string' },
      context: { type: 'string', description: 'Anything the sub-task needs to know.' },
    },
    required: ['connector_id', 'query'],
    additionalProperties: false,
  },
};

/** The meta-tools offered to the model. */
export function metaTools(options: { connectors: boolean }): ModelTool[] {
  return [SEARCH, DESCRIBE, CALL, RUN_CODE, ...(options.connectors ? [QUERY_CONNECTOR] : [])];
}

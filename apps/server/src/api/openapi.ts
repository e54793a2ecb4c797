import { z } from 'zod';
import { ErrorCode } from '@mcp-agent/core';
import { API_ROUTES, METRICS_ROUTE, UI_ROUTES, type Route } from './openapi-routes.js';

/** Which optional routes the app serves. */
export interface OpenApiOptions {
  /** `/metrics`; with `ui`, the web UI and its data too. */
  readonly observability?: { readonly ui: boolean };
}

/**
 * The HTTP API described as an OpenAPI 3.1 document: each route with its parameters, its
 * request body (JSON Schema 2020-12 from the zod schema the route parses it with), its answers
 * and the shared error body `{"error": {code, message}}`.
 */
export function openApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const routes = [
    ...API_ROUTES,
    ...(options.observability === undefined ? [] : [METRICS_ROUTE]),
    ...(options.observability?.ui === true ? UI_ROUTES : []),
  ];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'mcp-agent HTTP API',
      version: '1',
      description:
        'Tasks, per-user MCP servers, usage and quotas, and the MCP gateway. Everything under `/v1` needs a bearer token; errors are `{"error": {code, message}}` with stable codes.',
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody) },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: "The user's access token." },
        operator: { type: 'http', scheme: 'bearer', description: "The operator's token." },
      },
    },
  };
}

const errorBody = z.object({
  error: z.object({
    code: z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]),
    message: z.string().describe('What was wrong and how to fix it.'),
  }),
});

function operation(route: Route): Record<string, unknown> {
  const parameters = [
    ...[...route.path.matchAll(/:(\w+)/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...Object.entries(route.query?.shape ?? {}).map(([name, schema]) => {
      const json = jsonSchema(schema as z.ZodType);
      return {
        name,
        in: 'query',
        required: !(schema as z.ZodType).safeParse(undefined).success,
        ...(typeof json.description === 'string' ? { description: json.description } : {}),
        schema: json,
      };
    }),
  ];
  const errors = {
    description: 'An error.',
    content: json({ $ref: '#/components/schemas/Error' }),
  };
  return {
    summary: route.summary,
    operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string = '') => c.toUpperCase())}`,
    security: route.auth === 'none' ? [] : [{ [route.auth]: [] }],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined
      ? {}
      : { requestBody: { required: true, content: json(jsonSchema(route.body)) } }),
    responses: {
      ...Object.fromEntries(
        Object.entries(route.responses).map(([status, description]) => [status, { description }]),
      ),
      default: errors,
    },
  };
}

function json(schema: Record<string, unknown>) {
  return { 'application/json': { schema } };
}

// What the request must be (`io: 'input'`: defaults may be left out), without the `$schema` key
// the document's dialect already gives.
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' });
  return rest;
}

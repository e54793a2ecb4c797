// The routes of the HTTP API as its OpenAPI document describes them: a table the document is
// built from (openapi.ts), checked against the routes the app registers (openapi.test.ts).
import { z } from 'zod';
import { MAX_USAGE_DAYS } from '@mcp-agent/registry';
import { PROTECTED_RESOURCE_PATH } from '../auth/protected-resource.js';
import { serverBody, taskBody } from './request-schemas.js';

/** Where the API's OpenAPI document is served, without a token. */
export const OPENAPI_PATH = '/openapi.json';

/** The HTTP methods the API's routes answer, as OpenAPI names them. */
export type Method = 'get' | 'post' | 'delete' | 'options';
/** What a route needs: the user's bearer token, the operator's, or nothing. */
export type Auth = 'bearer' | 'operator' | 'none';

/** One operation of the API as the document describes it. */
export interface Route {
  readonly method: Method;
  /** Hono's form: `/v1/tasks/:id`. */
  readonly path: string;
  readonly summary: string;
  readonly auth: Auth;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** The answers besides the errors every route shares, by status. */
  readonly responses: Readonly<Record<string, string>>;
}

// The query parameters the routes read by hand; the routes check them, these describe them.
const limit = (fallback: number) =>
  z.number().int().min(1).max(1_000).default(fallback).describe('How many to return.');
const tasksQuery = z.object({
  limit: limit(50),
  before: z.string().optional().describe('The `createdAt` of the last task of the previous page.'),
});
const usageQuery = z.object({
  days: z
    .number()
    .int()
    .min(1)
    .max(MAX_USAGE_DAYS)
    .default(30)
    .describe('Days back, today included.'),
});
const registryQuery = z.object({
  search: z.string().max(200).optional().describe('Servers whose name contains this.'),
  limit: limit(20),
  cursor: z.string().max(500).optional().describe('The `nextCursor` of the previous page.'),
});
const resourceQuery = z.object({
  uri: z.string().min(1).describe('The resource, as `GET /v1/servers/{id}/resources` lists it.'),
});
const callbackQuery = z.object({
  user: z.string(),
  server: z.string(),
  code: z.string(),
  state: z.string(),
  iss: z.string().optional(),
});

const TASK_ANSWER = { '200': 'The task: id, task, status and result (null until it ends).' };
const MCP = 'The MCP gateway (streamable HTTP): ';

// Every route of `createHttpApi`; the observability routes only when they are served. The test
// enumerates the app's own routes against this list, so a route added without a line here fails.
export const API_ROUTES: readonly Route[] = [
  {
    method: 'get',
    path: '/health',
    summary: 'Liveness: the process answers.',
    auth: 'none',
    responses: { '200': '`{"ok": true}`.' },
  },
  {
    method: 'get',
    path: '/ready',
    summary: 'Readiness: the registry answers; says whether tasks can run (a model is configured).',
    auth: 'none',
    responses: { '200': 'Ready.', '503': 'Not ready, or draining for shutdown.' },
  },
  {
    method: 'get',
    path: OPENAPI_PATH,
    summary: 'This document.',
    auth: 'none',
    responses: { '200': 'The OpenAPI 3.1 document.' },
  },
  {
    method: 'get',
    path: '/v1/oauth/callback',
    summary:
      "The OAuth redirect back from a server's authorisation server; the state proves whose sign-in it ends.",
    auth: 'none',
    query: callbackQuery,
    responses: { '200': 'Signed in (text).', '400': 'The same answer for every failed callback.' },
  },
  {
    method: 'post',
    path: '/mcp',
    summary: `${MCP}a JSON-RPC request or notification.`,
    auth: 'bearer',
    responses: {
      '200': 'A JSON-RPC answer, or an SSE stream of them.',
      '202': 'A notification accepted.',
    },
  },
  {
    method: 'get',
    path: '/mcp',
    summary: `${MCP}the session's stream of server messages (SSE).`,
    auth: 'bearer',
    responses: { '200': 'An SSE stream.' },
  },
  {
    method: 'delete',
    path: '/mcp',
    summary: `${MCP}ends the session.`,
    auth: 'bearer',
    responses: { '200': 'Ended.' },
  },
  ...['', '/mcp'].flatMap((resource): Route[] => [
    {
      method: 'get',
      path: `${PROTECTED_RESOURCE_PATH}${resource}`,
      summary:
        'Protected-resource metadata (RFC 9728): where a client gets a token for this server.',
      auth: 'none',
      responses: { '200': 'The metadata.' },
    },
    {
      method: 'options',
      path: `${PROTECTED_RESOURCE_PATH}${resource}`,
      summary: 'CORS preflight for browser-based MCP clients.',
      auth: 'none',
      responses: { '204': 'Allowed.' },
    },
  ]),
  {
    method: 'get',
    path: '/v1/tasks',
    summary: "The caller's tasks, newest first.",
    auth: 'bearer',
    query: tasksQuery,
    responses: { '200': '`{"tasks": [{id, task, status, createdAt}]}`.' },
  },
  {
    method: 'post',
    path: '/v1/tasks',
    summary: 'Starts a task; follow it by its id.',
    auth: 'bearer',
    body: taskBody,
    responses: { '202': 'Accepted: `{id, status}`.' },
  },
  {
    method: 'get',
    path: '/v1/tasks/:id',
    summary: 'One task.',
    auth: 'bearer',
    responses: TASK_ANSWER,
  },
  {
    method: 'delete',
    path: '/v1/tasks/:id',
    summary: 'Cancels a task; answers once it has stopped.',
    auth: 'bearer',
    responses: { ...TASK_ANSWER, '202': 'Still stopping.' },
  },
  {
    method: 'post',
    path: '/v1/tasks/:id/cancel',
    summary: 'Cancels a task (as DELETE).',
    auth: 'bearer',
    responses: { ...TASK_ANSWER, '202': 'Still stopping.' },
  },
  {
    method: 'get',
    path: '/v1/tasks/:id/events',
    summary: "The task's events as server-sent events, resumable by Last-Event-ID.",
    auth: 'bearer',
    responses: { '200': 'An SSE stream ending with a `done` event.' },
  },
  {
    method: 'get',
    path: '/v1/servers/:id/resources',
    summary: "A server's resources and resource templates.",
    auth: 'bearer',
    responses: { '200': 'The lists.' },
  },
  {
    method: 'get',
    path: '/v1/servers/:id/resources/read',
    summary: 'Reads one resource, whole.',
    auth: 'bearer',
    query: resourceQuery,
    responses: { '200': '`{server, uri, contents}`.' },
  },
  {
    method: 'get',
    path: '/v1/usage',
    summary: "The caller's usage by day, server and model, and their quotas.",
    auth: 'bearer',
    query: usageQuery,
    responses: { '200': '`{usage, quotas}`.' },
  },
  {
    method: 'get',
    path: '/v1/servers',
    summary: "The caller's servers, disabled ones included.",
    auth: 'bearer',
    responses: { '200': '`{"servers": [...]}`.' },
  },
  {
    method: 'post',
    path: '/v1/servers',
    summary: 'Adds a server for the caller.',
    auth: 'bearer',
    body: serverBody,
    responses: { '201': '`{"server": {id, transport, status}}`.' },
  },
  {
    method: 'delete',
    path: '/v1/servers/:id',
    summary: "Removes one of the caller's servers.",
    auth: 'bearer',
    responses: { '204': 'Removed.' },
  },
  {
    method: 'get',
    path: '/v1/servers/:id/status',
    summary: "A server's state, the reason, and its connection metrics.",
    auth: 'bearer',
    responses: { '200': 'The report.' },
  },
  {
    method: 'get',
    path: '/v1/registry/servers',
    summary: 'Searches the MCP Registry (latest versions).',
    auth: 'bearer',
    query: registryQuery,
    responses: { '200': 'A page of servers and the next cursor.' },
  },
  {
    method: 'post',
    path: '/v1/servers/:id/oauth',
    summary: 'Starts signing in to a server with OAuth: the URL to send the user to.',
    auth: 'bearer',
    responses: { '200': 'The authorisation URL.' },
  },
];

const UI = "The web UI's data (its parameters follow the UI and may change with it): ";
export const METRICS_ROUTE: Route = {
  method: 'get',
  path: '/metrics',
  summary: 'Prometheus metrics, for the operator.',
  auth: 'operator',
  responses: { '200': 'The Prometheus text format.' },
};
export const UI_ROUTES: readonly Route[] = [
  {
    method: 'get',
    path: '/ui',
    summary: 'Redirects to `/ui/`.',
    auth: 'none',
    responses: { '301': 'To `/ui/`.' },
  },
  {
    method: 'get',
    path: '/ui/',
    summary: 'The web UI.',
    auth: 'none',
    responses: { '200': 'HTML.' },
  },
  {
    method: 'get',
    path: '/ui/assets/:name',
    summary: "The web UI's files.",
    auth: 'none',
    responses: { '200': 'The file.' },
  },
  ...[
    'session',
    'servers',
    'servers/:id/tools',
    'search',
    'tasks',
    'tasks/:id',
    'tasks/:id/events',
    'traces',
    'logs',
    'audit',
    'process',
  ].map((name): Route => ({
    method: 'get',
    path: `/ui/api/${name}`,
    summary: `${UI}${name}.`,
    auth: 'bearer',
    responses: { '200': 'The data.' },
  })),
];

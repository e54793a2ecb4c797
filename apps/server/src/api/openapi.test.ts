import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openAgentStack, type AgentStack } from '@mcp-agent/agent';
import { OperatorToken } from '../auth/operator-token.js';
import { StaticTokenVerifier } from '../auth/token-verifier.js';
import type { ObservabilityOptions } from '../ui/observability-routes.js';
import { createHttpApi } from './http-api.js';
import { serveHttpApi } from './serve-api.js';

// The OpenAPI document against the app itself: every route Hono registers is in it and nothing
// else is, for each set of optional routes, and a maintained OpenAPI 3.1 validator accepts it.

type Document = { openapi: string; paths: Record<string, Record<string, unknown>> };

const home = mkdtempSync(join(tmpdir(), 'mcp-openapi-'));
const TOKEN = randomBytes(16).toString('hex');
const verifier = new StaticTokenVerifier({ [TOKEN]: 'alice' });
let stack: AgentStack;
let api: Awaited<ReturnType<typeof serveHttpApi>>;

beforeAll(async () => {
  stack = await openAgentStack({
    home,
    env: { MCP_AGENT_SECRET_KEY: randomBytes(32).toString('base64') },
    userServers: { stdio: 'none', remote: 'public' },
    sandbox: false,
  });
  api = await serveHttpApi({ stack, port: 0, verifier });
});
afterAll(async () => {
  await api?.close();
  await stack?.close();
  rmSync(home, { recursive: true, force: true });
});

// "method /path" for each route the app registers, in the document's path form (middleware,
// mounted on a `*` path, left out; a route on every method, `app.all`, as "* /path"), and the
// document that app serves, read through its own route.
async function appAndDocument(
  observability?: ObservabilityOptions,
): Promise<{ routes: string[]; document: Document }> {
  const app = createHttpApi({ stack, verifier, ...(observability ? { observability } : {}) });
  const routes = app.routes
    .filter((route) => !route.path.endsWith('*'))
    .map((route) => {
      const method = route.method === 'ALL' ? '*' : route.method.toLowerCase();
      return `${method} ${route.path.replace(/:(\w+)/g, '{$1}')}`;
    });
  const response = await app.request('/openapi.json');
  expect(response.status).toBe(200);
  return { routes: [...new Set(routes)].sort(), document: (await response.json()) as Document };
}

const operationsOf = (document: Document): string[] =>
  Object.entries(document.paths)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`))
    .sort();

async function validate(document: unknown) {
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  return { valid: result.valid, errors: result.errors, version: validator.version };
}

const VARIANTS: Record<string, ObservabilityOptions | undefined> = {
  'the API alone': undefined,
  'the API with /metrics': { operator: new OperatorToken('o'.repeat(40)), ui: false },
  'the API with /metrics and the web UI': { operator: new OperatorToken('o'.repeat(40)), ui: true },
};

describe('the OpenAPI document', () => {
  it('is served at /openapi.json without a token, and a maintained OpenAPI 3.1 validator accepts it', async () => {
    const response = await fetch(`${api.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Document;
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('the validator refuses a broken document (the check above can fail)', async () => {
    const { document } = await appAndDocument();
    const broken = structuredClone(document) as Record<string, unknown>;
    delete broken.info;
    expect((await validate(broken)).valid).toBe(false);
    const badResponse = structuredClone(document);
    (badResponse.paths['/health'] as Record<string, unknown>).get = { responses: { 200: 'ok' } };
    expect((await validate(badResponse)).valid).toBe(false);
  });

  for (const [name, observability] of Object.entries(VARIANTS))
    it(`lists every route the app registers and no other, for ${name}`, async () => {
      const { routes, document } = await appAndDocument(observability);
      const operations = operationsOf(document);
      // Each registered route is in the document; a route on every method by at least one.
      const missing = routes.filter((route) => {
        const [method, path] = route.split(' ') as [string, string];
        return method === '*'
          ? !operations.some((op) => op.endsWith(` ${path}`))
          : !operations.includes(route);
      });
      expect(missing).toEqual([]);
      // Each operation in the document is a route the app serves.
      const extra = operations.filter((op) => {
        const path = op.slice(op.indexOf(' ') + 1);
        return !routes.includes(op) && !routes.includes(`* ${path}`);
      });
      expect(extra).toEqual([]);
      expect((await validate(document)).valid).toBe(true);
      expect(routes.length).toBeGreaterThan(20);
    });

  it("describes a request body from the route's own schema: the task body's fields and limits", async () => {
    const { document } = await appAndDocument();
    const post = document.paths['/v1/tasks']?.post as {
      requestBody: { content: { 'application/json': { schema: Record<string, unknown> } } };
    };
    const schema = post.requestBody.content['application/json'].schema;
    expect(schema).toMatchObject({
      type: 'object',
      required: ['task'],
      additionalProperties: false,
      properties: { task: { type: 'string', minLength: 1, maxLength: 20_000 } },
    });
    expect(Object.keys(schema.properties as object).sort()).toEqual(
      ['allowServers', 'budget', 'context', 'task', 'threadId'].sort(),
    );
  });
});

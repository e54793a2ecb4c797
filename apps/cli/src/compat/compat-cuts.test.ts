import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JsonValue } from '@mcp-agent/core';
import { reassemble } from '@mcp-agent/execution/testing';
import { cliHome, gatewayClient } from '../cli-test-helpers.js';
import {
  addArgs,
  compatServers,
  compatWorld,
  joinedText,
  observation,
  ownCall,
  PEOPLE,
} from './compat-test-helpers.js';
import { minimalPdf } from './document-test-helpers.js';

// What reaches a model from real servers, through `mcp-agent serve --stdio` (the meta-tool
// session the agent and the gateway share): a result within the budget unchanged; a larger one
// cut, announced with read_result pointers, and read back whole by following them.
const world = compatWorld('mcp-compat-cuts-data-');
const servers = compatServers(world);
const { home, env, run } = cliHome('mcp-compat-cuts-home-');
let client: Client | undefined;

async function meta(name: string, args: Record<string, unknown>) {
  if (client === undefined) throw new Error('the gateway did not start');
  return observation(await client.callTool({ name, arguments: args }));
}

/** call_tool on a described tool: the observation the model reads. */
async function modelCall(toolId: string, args: Record<string, unknown>) {
  await meta('describe_tools', { tool_ids: [toolId] });
  return (await meta('call_tool', { tool_id: toolId, arguments: args })) as {
    result: JsonValue;
    truncated?: boolean;
    observation_id?: string;
  };
}

/**
 * Asserts a cut observation — marked truncated with its id, naming read_result, smaller than the
 * whole — and returns the whole, rebuilt by following every pointer through read_result as a
 * model would.
 */
async function expectCut(observed: Awaited<ReturnType<typeof modelCall>>): Promise<JsonValue> {
  expect(observed.truncated).toBe(true);
  expect(observed.observation_id).toMatch(/^obs_/);
  const shown = JSON.stringify(observed.result);
  expect(shown).toContain('read_result');
  let reads = 0;
  const whole = await reassemble(observed.result, {
    read: async (pointer) => {
      reads += 1;
      const page = (await meta('read_result', { ...pointer })) as {
        value: JsonValue;
        error?: { message: string };
      };
      if (page.error !== undefined) throw new Error(page.error.message);
      return page.value;
    },
    whole: () => {
      throw new Error('no media in these results');
    },
  });
  expect(reads).toBeGreaterThan(0);
  expect(shown.length).toBeLessThan(JSON.stringify(whole).length);
  return whole;
}

beforeAll(async () => {
  for (const id of ['memory', 'files', 'sqlite', 'pdf'] as const)
    expect(run(addArgs(servers[id])).code).toBe(0);
  client = await gatewayClient(home, env);
}, 240_000);

afterAll(async () => {
  await client?.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(world.root, { recursive: true, force: true });
});

describe(
  'what reaches the model from real servers: whole within the budget, else cut and readable',
  { timeout: 180_000 },
  () => {
    it('SQLite: the three-row result reaches the model unchanged', async () => {
      const args = { sql: 'SELECT * FROM people ORDER BY id' };
      const observed = await modelCall('sqlite.execute_sql', args);
      expect(observed.truncated).toBeUndefined();
      // The server's own text, character for character; it parses.
      expect(observed.result).toBe(joinedText(await ownCall(servers.sqlite, 'execute_sql', args)));
      expect(JSON.parse(observed.result as string)).toMatchObject({
        success: true,
        data: { statements: [{ rows: PEOPLE, count: 3 }] },
      });
    });

    it('SQLite: 2,000 rows are cut to the budget, announced, and read back whole', async () => {
      const sql =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT i AS id, 'row number ' || i AS label FROM n";
      const rows = Array.from({ length: 2_000 }, (_, i) => ({
        id: i + 1,
        label: `row number ${i + 1}`,
      }));
      const whole = (await expectCut(await modelCall('sqlite.execute_sql', { sql }))) as {
        data: { statements: { rows: unknown[] }[] };
      };
      expect(whole.data.statements[0]?.rows).toEqual(rows);
    });

    it('memory: a 300-entity graph is cut and read back whole', async () => {
      const entities = Array.from({ length: 300 }, (_, i) => ({
        name: `Person ${i}`,
        entityType: 'person',
        observations: [
          `Works on project ${i % 17}`,
          `Joined in ${2000 + (i % 25)}`,
          `Lives in city ${i}`,
        ],
      }));
      const file = join(home, 'entities.json');
      writeFileSync(file, JSON.stringify({ entities }));
      expect(run(['tools', 'call', 'memory.create_entities', '--args', `@${file}`]).code).toBe(0);
      const whole = (await expectCut(await modelCall('memory.read_graph', {}))) as {
        entities: unknown[];
      };
      expect(whole.entities).toEqual(entities.map((e) => expect.objectContaining(e)));
    });

    it('filesystem: a 120 KB text file is cut at its tail and read back to the last character', async () => {
      const text = Array.from(
        { length: 3_000 },
        (_, i) => `line ${i}: the quick brown fox jumps`,
      ).join('\n');
      const path = join(world.files, 'big.txt');
      writeFileSync(path, text);
      const whole = (await expectCut(await modelCall('files.read_text_file', { path }))) as {
        content: string;
      };
      expect(whole.content).toBe(text);
    });

    it('PDF reader: a 150-page PDF\u2019s text is cut and read back as the server wrote it', async () => {
      const pages = Array.from({ length: 150 }, (_, p) =>
        Array.from(
          { length: 6 },
          (_, l) => `Page ${p + 1}, line ${l + 1}: figures for the quarter`,
        ),
      );
      const path = join(world.files, 'long.pdf');
      writeFileSync(path, minimalPdf(pages));
      const args = { sources: [{ path }], include_full_text: true };
      const written = joinedText(await ownCall(servers.pdf, 'read_pdf', args));
      expect(written.length).toBeGreaterThan(40_000);
      expect(await expectCut(await modelCall('pdf.read_pdf', args))).toBe(written);
    });
  },
);

import { describe, expect, it } from 'vitest';

// The deliberate public surface (runtime names; types are checked by tsc): a change to it
// is a visible diff here, to be made on purpose.
describe('the public surface of @mcp-agent/knowledge', () => {
  it('the root entry exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/knowledge')).sort()).toMatchInlineSnapshot(`
      [
        "BROWSE_PAGE_SIZE",
        "DEFAULT_RANKING",
        "Knowledge",
        "MAX_QUERY_LENGTH",
        "MAX_SEARCH_QUERIES",
        "OpenAiCompatibleEmbedder",
        "ToolSearchIndex",
        "ToolboxBuilder",
        "describeTool",
        "explainMatch",
        "firstLine",
        "fuseSignals",
        "inventoryView",
        "toDocument",
        "trimText",
        "typeOf",
      ]
    `);
  });

  it('./testing exports exactly these names', async () => {
    expect(Object.keys(await import('@mcp-agent/knowledge/testing')).sort()).toMatchInlineSnapshot(`
      [
        "InMemorySearchIndex",
        "SEMANTIC_DEPTH",
        "ServerRanking",
        "ToolVectors",
        "browsePage",
        "byServer",
        "countTokens",
        "deterministicEmbedding",
        "fuseHybrid",
        "manifestOf",
        "readCorpus",
        "readQueries",
        "startTestEmbeddingServer",
        "toSearchDocument",
        "toToolSpecs",
        "toolSearchAnswer",
      ]
    `);
  });
});

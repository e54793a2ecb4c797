import type { RankingOptions } from '@mcp-agent/knowledge';

/** `MCP_AGENT_RANKING='{"serverWeight":0.3}'` overrides the ranking, for experiments. */
export function rankingFromEnv(): Partial<RankingOptions> {
  const text = process.env.MCP_AGENT_RANKING;
  return text ? (JSON.parse(text) as Partial<RankingOptions>) : {};
}

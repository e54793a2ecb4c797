/** The --help text of each command, with examples. */
export const HELP: Record<string, string> = {
  '': `mcp-agent — a discovery-first agent over your MCP servers

Usage: mcp-agent [--user <id>] [--home <dir>] [--json] <command> …

Commands:
  servers add | import | list | remove | status   manage your MCP servers
  auth login <server> | logout <server>            OAuth for remote servers
  tools search "<query>"… | describe <id…> | call <id> --args <json|@file>
  exec <file.js|file.ts>                           run a script in the sandbox
  run "<task>"                                     executeTask, streaming each step
  serve --stdio | --http <port>                    the MCP gateway
  usage [--days 30] | usage quota set --max-…      model tokens, cost and tool calls; quotas
  tokens add <user> | revoke <id> | list           the gateway's bearer tokens

Global options:
  --user <id>    the user (tenant); default $MCP_AGENT_USER or your login name
  --home <dir>   where the registry lives; default $MCP_AGENT_HOME or ~/.mcp-agent
  --json         machine-readable output; errors as {"error": {code, message}}

Run "mcp-agent <command> --help" for examples.`,
  servers: `mcp-agent servers — manage your MCP servers

  servers add <id> --command <program> [--arg <a>]… [--env K=V]…
  servers add <id> --url <https://…> [--transport streamable-http|sse|auto] [--header K=V]…
  servers import <mcp.json>        Claude Desktop / Cursor "mcpServers" or VS Code "servers"
  servers list
  servers remove <id>
  servers status                   connect and show readiness, tool counts, last errors

Examples:
  mcp-agent servers add memory --command npx --arg -y --arg @modelcontextprotocol/server-memory
  mcp-agent servers add linear --url https://mcp.linear.app/mcp
  mcp-agent servers import ~/.cursor/mcp.json`,
  auth: `mcp-agent auth — OAuth for remote servers

  auth login <server> [--port 8976]   prints the URL to open; listens on 127.0.0.1 for the callback
  auth logout <server>                deletes the stored tokens`,
  tools: `mcp-agent tools — find, read and call tools

  tools search "<query>" ["<another query>"…] [--limit 5]
                                      each quoted query gets its own top tools (at most 10
                                      queries); unquoted words are one query
  tools describe <toolId>… [--full]   every field at every depth; --full lifts the cuts
  tools call <toolId> --args '{"key": "value"}'   (or --args @args.json)

Examples:
  mcp-agent tools search "create an issue"
  mcp-agent tools search "find the customer" "create an invoice" "email the invoice"
  mcp-agent tools describe github.create_issue
  mcp-agent tools call memory.read_graph --args '{}'`,
  exec: `mcp-agent exec <file.js|file.ts> — run a script in the sandbox

The script is an async function body; "return" gives the result. It calls tools as
await tools.<server>.<tool>(args); every tool of your servers is available.`,
  run: `mcp-agent run "<task>" — hand a task to the agent

The model: MCP_AGENT_MODEL=anthropic:<model> with ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL), or
MCP_AGENT_MODEL=openai:<model> with OPENAI_API_KEY and/or OPENAI_BASE_URL (vLLM, Ollama, …).

Example:
  mcp-agent run "Summarise the open issues of acme/app"`,
  usage: `mcp-agent usage — what your tasks used, and your quotas

  usage [--days 30]                     totals, then by day, by connector and by model
  usage quota set [--max-calls-per-hour N] [--max-tokens-per-day N] [--max-servers-per-thread N]
                                        the user's own quotas (an operator's act; "default"
                                        returns to the deployment's, MCP_AGENT_QUOTAS)

Costs are estimates from a price table (MCP_AGENT_MODEL_PRICES overrides it).

Examples:
  mcp-agent usage --days 7
  mcp-agent --user bob usage quota set --max-tokens-per-day 2000000`,
  serve: `mcp-agent serve — the MCP gateway

  serve --stdio                        one user (--user), for Claude Desktop, Cursor, Claude Code
  serve --http <port>                  on 127.0.0.1; with --tokens <file> every request needs a
                                       bearer token mapped to a user (see "mcp-agent tokens");
                                       without it, it serves --user alone`,
  tokens: `mcp-agent tokens — the bearer tokens of the server and "serve --http"

  tokens add <user> --tokens <file>    a new token for <user>, printed once (the file keeps its digest)
  tokens revoke <id> --tokens <file>   a running server refuses it within 2 s and closes its sessions
  tokens list --tokens <file>          ids, users and dates; never the tokens

The file is --tokens <file> or $MCP_AGENT_TOKENS_FILE. A running server re-reads it: no restart.

Example:
  mcp-agent tokens add alice --tokens /etc/mcp-agent/tokens.json`,
};

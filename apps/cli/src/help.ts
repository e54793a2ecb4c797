/** The --help text of each command, with examples. */
export const HELP: Record<string, string> = {
  '': `mcp-agent — a discovery-first agent over your MCP servers

Usage: mcp-agent [--user <id>] [--home <dir>] [--json] <command> …

Commands:
  servers add | import | list | remove | status   manage your MCP servers
  auth login <server> | logout <server>            OAuth for remote servers
  tools search "<query>" | describe <id…> | call <id> --args <json|@file>
  exec <file.js|file.ts>                           run a script in the sandbox
  run "<task>"                                     executeTask, streaming each step
  serve --stdio | --http <port>                    the MCP gateway
  ui [--port <n>]                                  the web UI on 127.0.0.1 (a one-time token in its URL)
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

  tools search "<query>" [--limit 5]
  tools describe <toolId>… [--full]   every field at every depth; --full lifts the cuts
  tools call <toolId> --args '{"key": "value"}'   (or --args @args.json)

Examples:
  mcp-agent tools search "create an issue"
  mcp-agent tools describe github.create_issue
  mcp-agent tools call memory.read_graph --args '{}'`,
  exec: `mcp-agent exec <file.js|file.ts> — run a script in the sandbox

The script is an async function body; "return" gives the result. It calls tools as
await tools.<server>.<tool>(args); every tool of your servers is available.`,
  run: `mcp-agent run "<task>" — hand a task to the agent (needs ANTHROPIC_API_KEY)

Example:
  mcp-agent run "Summarise the open issues of acme/app"`,
  serve: `mcp-agent serve — the MCP gateway

  serve --stdio                        one user (--user), for Claude Desktop, Cursor, Claude Code
  serve --http <port>                  on 127.0.0.1; with --tokens <file> every request needs a
                                       bearer token mapped to a user (see "mcp-agent tokens");
                                       without it, it serves --user alone`,
  ui: `mcp-agent ui — the web UI, for you alone

  ui [--port <n>]    serves the UI on 127.0.0.1 (a free port unless --port) and prints its URL,
                     with a random token after "#token=": open it in a browser. The token is made
                     anew at each start and never written anywhere; Ctrl-C stops the server.

Servers and their readiness, each server's tools (deep views, poisoning flags), search with the
reasons for each hit, tasks as live timelines, the MCP traffic of the gateway, and live logs.
With OTEL_EXPORTER_OTLP_ENDPOINT set, spans and metrics are also exported over OTLP/HTTP.`,
  tokens: `mcp-agent tokens — the bearer tokens of the server and "serve --http"

  tokens add <user> --tokens <file>    a new token for <user>, printed once (the file keeps its digest)
  tokens revoke <id> --tokens <file>   a running server refuses it within 2 s and closes its sessions
  tokens list --tokens <file>          ids, users and dates; never the tokens

The file is --tokens <file> or $MCP_AGENT_TOKENS_FILE. A running server re-reads it: no restart.

Example:
  mcp-agent tokens add alice --tokens /etc/mcp-agent/tokens.json`,
};

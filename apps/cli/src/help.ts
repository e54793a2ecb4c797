/** The --help text of each command and subcommand ("servers add"), with examples. */
export const HELP: Record<string, string> = {
  '': `mcp-agent — a discovery-first agent over your MCP servers

Usage: mcp-agent [--user <id>] [--home <dir>] [--json] [--verbose] <command> …

Commands:
  servers add | import | list | show | enable | disable | export | remove | status
                                                   manage your MCP servers
  registry search <words>                          find servers in the MCP Registry
  auth login <server> | logout <server>            OAuth for remote servers
  tools search "<query>"… | describe <id…> | call <id> --args <json|@file>
  resources list [<server>…] | read <server> <uri>  your servers' resources
  exec <file.js|file.ts>                           run a script in the sandbox
  run "<task>"                                     executeTask, streaming each step
  eval [--model <name>] [--modes <list>]           the task suite: discovery-first against all tools up front
  serve --stdio | --http <port>                    the MCP gateway
  usage [--days 30] | usage quota set --max-…      model tokens, cost and tool calls; quotas
  ui [--port <n>]                                  the web UI on 127.0.0.1 (a one-time token in its URL)
  tokens add <user> | revoke <id> | list           the gateway's bearer tokens
  client-config <claude|cursor|vscode|claude-code> the gateway's entry for an MCP client

Global options:
  --user <id>    the user (tenant); default $MCP_AGENT_USER or your login name
  --home <dir>   where the registry lives; default $MCP_AGENT_HOME or ~/.mcp-agent
  --json         machine-readable output; errors as {"error": {code, message}}
  --verbose, -v  debug logs on standard error (or MCP_AGENT_LOG_LEVEL=debug|info|warn|error)
  --version      the version of mcp-agent
  --help, -h     this text; "mcp-agent <command> [<sub>] --help" for one command

Exit codes: 0 done, 1 failed, 2 bad usage or input, 3 not found, 4 not ready or unauthorised,
5 a quota or rate limit reached (try again later).`,
  servers: `mcp-agent servers — manage your MCP servers

  servers add <id> --command <program> [--arg <a>]… [--env K=V]… [--cwd <dir>] [--replace]
  servers add <id> --url <https://…> [--transport streamable-http|sse|auto] [--header K=V]…
  servers add [<id>] --from-registry <name> [--env K=V]… [--header K=V]… [--remote]
  servers import <mcp.json> [--partial] [--input <id>=<value>]… [--workspace-folder <dir>]
  servers list
  servers show <id>                command or URL, transport, tier, enabled; secrets by name only
  servers enable <id> | disable <id>
  servers export [<id>…] [--with-secrets]   your servers as an "mcpServers" file
  servers remove <id>
  servers status [<id>…] [--timeout 30]     connect; each server's state and the reason

Run "mcp-agent servers <sub> --help" for one of them.

Examples:
  mcp-agent servers add memory --command npx --arg -y --arg @modelcontextprotocol/server-memory
  mcp-agent servers add linear --url https://mcp.linear.app/mcp
  mcp-agent servers import ~/.cursor/mcp.json`,
  'servers add': `mcp-agent servers add — add one server

  servers add <id> --command <program> [--arg <a>]… [--env K=V]… [--cwd <dir>]
  servers add <id> --url <https://…> [--transport streamable-http|sse|auto] [--header K=V]…
  servers add [<id>] --from-registry <name> [--env K=V]… [--header K=V]… [--remote]
                                   [--registry-url <url>]

An id that exists is refused unless --replace is given. Env and header values are stored
encrypted. --from-registry takes the server's latest version from the MCP Registry
(MCP_AGENT_MCP_REGISTRY_URL or --registry-url; default https://registry.modelcontextprotocol.io):
its npm, PyPI or OCI package over stdio, or with --remote its remote URL; values it requires
come from --env / --header. --timeout <seconds> is how long one request to the server may go
without an answer or progress (default 60; progress resets it).

Examples:
  mcp-agent servers add memory --command npx --arg -y --arg @modelcontextprotocol/server-memory
  mcp-agent servers add linear --url https://mcp.linear.app/mcp
  mcp-agent servers add --from-registry io.github.acme/weather --env WEATHER_API_KEY=…`,
  'servers import': `mcp-agent servers import <file> — import a client's config file

Reads Claude Desktop / Cursor / Claude Code "mcpServers" files and VS Code's "servers" files
(.vscode/mcp.json, comments and trailing commas allowed). \${VAR}, \${VAR:-default} and
\${env:VAR} come from your environment; \${workspaceFolder} is the folder that holds the
file's .vscode folder (or --workspace-folder); \${input:id} values are asked for on a terminal
or given with --input id=value. All or nothing unless --partial: then the valid servers are
imported and the others listed with what to fix.

Example:
  mcp-agent servers import .vscode/mcp.json --input github-token=ghp_…`,
  'servers status': `mcp-agent servers status [<id>…] [--timeout 30] — connect and report

Connects every enabled server and waits for each on its own, up to --timeout seconds. Each
one reports its final state — ready, failed, timeout, needs_auth, refused, disabled — and why:
"exited with code 1 …: Cannot find module …", "no MCP handshake within 30 s", and for a hang the
proxy or certificate variables withheld from it. Exit code 4 when an enabled server is not ready.`,
  'servers export': `mcp-agent servers export [<id>…] [--with-secrets] — your servers as a file

Prints your servers as an "mcpServers" file for Claude Desktop, Cursor or another mcp-agent.
Env and header values are written as \${NAME} placeholders unless --with-secrets is given.`,
  registry: `mcp-agent registry — find servers in the MCP Registry

  registry search <words> [--limit 20] [--registry-url <url>]

Searches server names (the registry's own substring match) in the MCP Registry
(MCP_AGENT_MCP_REGISTRY_URL, default https://registry.modelcontextprotocol.io). Add one with
"mcp-agent servers add --from-registry <name>".

Example:
  mcp-agent registry search github`,
  auth: `mcp-agent auth — OAuth for remote servers

  auth login <server> [--port 8976]   prints the URL to open; listens on 127.0.0.1 for the callback
  auth logout <server>                deletes the stored tokens`,
  tools: `mcp-agent tools — find, read and call tools

  tools search "<query>" ["<another query>"…] [--limit 5]
                                      each quoted query gets its own top tools (at most 10
                                      queries); unquoted words are one query
  tools describe <toolId>… [--full]   every field at every depth; --full lifts the cuts
  tools call <toolId> --args '{"key": "value"}'   (or --args @args.json) [--out <dir>]
                                      [--timeout <seconds>]

search and describe read the stored catalogs and start no server; call starts only the
server it needs and prints the whole result (nothing is cut; --full is accepted and is the
default). Images, audio and binary resources are written to files, in --out <dir> or a new
folder under the system's temporary folder, and their paths printed in place of the data.
A long call shows its progress on standard error; --timeout is how long it may go without an
answer or progress (default the server's timeout, else 60 s), and progress resets it.

Examples:
  mcp-agent tools search "create an issue"
  mcp-agent tools search "find the customer" "create an invoice" "email the invoice"
  mcp-agent tools describe github.create_issue
  mcp-agent tools call memory.read_graph --args '{}'`,
  resources: `mcp-agent resources — read your servers' resources

  resources list [<server>…]             each server's resources and templates (all your
                                         servers when none is named)
  resources read <server> <uri> [--out <dir>]
                                         the resource's contents: text printed whole, binary
                                         contents written to files (in --out <dir> or a new
                                         temporary folder) and their paths printed

A resource_link in a tool result names the uri; only your own servers are reached.

Example:
  mcp-agent resources read everything demo://resource/static/document/architecture.md`,
  exec: `mcp-agent exec <file.js|file.ts> [--out <dir>] — run a script in the sandbox

The script is an async function body; "return" gives the result. It calls tools as
await tools.<server>.<tool>(args); every tool of your servers is available, and each returns
its whole result (images and audio as {type, mimeType, data}). Media the script returns are
written to files (in --out <dir> or a new temporary folder) and their paths printed.`,
  run: `mcp-agent run "<task>" — hand a task to the agent

The model: MCP_AGENT_MODEL=anthropic:<model> with ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL), or
MCP_AGENT_MODEL=openai:<model> with OPENAI_API_KEY and/or OPENAI_BASE_URL (vLLM, Ollama, …).

Each step is shown on standard error, cut to a line; --json prints every event whole.

Example:
  mcp-agent run "Summarise the open issues of acme/app"`,
  eval: `mcp-agent eval — the task suite over real offline MCP servers, in each mode

  eval [--model env|oracle|idle|<adversary>] [--modes discovery,all-tools,code-first|all]
       [--tasks <id>,…] [--timeout <seconds>] [--max-input-tokens <n>]
       [--queries blind|blind-sentence|tool-worded] [--size small|scale|all] [--out <dir>]

  Runs the suite's tasks against the model MCP_AGENT_MODEL names (--model env, the default), or a
  scripted one: oracle plays each task's reference plan, idle does nothing, and the adversaries
  (answer-only, wrong-args, extra-destroy, hedge, false-decline, false-done) each do one wrong
  thing; all but the oracle must fail every task they run ("failed as expected"). Each task starts
  from fresh state and is judged on its whole outcome: the world against that state (the
  requested change and nothing else), and a question's final "ANSWER: …" line, from a tool that
  holds the data. --mode and --task may also be repeated. Writes report.json, report.md,
  chart.svg and transcripts/<mode>/<task>.md to --out (default ./mcp-agent-eval) and prints the
  totals as JSON. Ctrl-C removes its temporary folders. Needs the suite's servers: run it from a
  checkout after "pnpm install". --size scale connects the recorded catalogs of
  ../shared/bench/catalogs (MCP_AGENT_BENCH_DIR to read them elsewhere) beside the suite's servers
  as distractors; small (the default) does not.

Examples:
  MCP_AGENT_MODEL=openai:qwen2.5 OPENAI_BASE_URL=http://127.0.0.1:11434/v1 mcp-agent eval --timeout 300
  mcp-agent eval --model oracle --modes discovery,all-tools --tasks sqlite,git-branch`,
  usage: `mcp-agent usage — what your tasks used, and your quotas

  usage [--days 30]                     totals, then by day, by server and by model
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
                                       without it, it serves --user alone

"mcp-agent client-config <client>" prints the entry that runs "serve --stdio" for your client.`,
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
  'client-config': `mcp-agent client-config <claude|cursor|vscode|claude-code> — set up a client

Prints the entry that runs this gateway ("mcp-agent serve --stdio", with --user and --home as
given here) for the client, in its own file format. --write merges it into the client's config
file, keeping everything else there (comments included), and says what changed:
  claude        Claude Desktop: claude_desktop_config.json ("mcpServers")
  cursor        Cursor: ~/.cursor/mcp.json ("mcpServers")
  vscode        VS Code: .vscode/mcp.json in this folder ("servers", with "type")
  claude-code   Claude Code: .mcp.json in this folder ("mcpServers"); also "claude mcp add-json"

Options: --write, --file <path> (another config file), --name <key> (default "mcp-agent"),
--npx (run the published package through npx instead of this installation's path).

Example:
  mcp-agent --user alice client-config claude --write`,
};

/** The help of `command` and `sub` ("servers add"), else of `command`, else the overview. */
export function helpFor(command: string | undefined, sub: string | undefined): string {
  return HELP[`${command ?? ''} ${sub ?? ''}`] ?? HELP[command ?? ''] ?? (HELP[''] as string);
}

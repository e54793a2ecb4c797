#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the registry's contract suite and
# prints its URL. Installs Debian's postgresql first when it is missing (CI on a new machine).
# Usage: eval "$(bash scripts/start-postgres.sh)"   → exports MCP_AGENT_TEST_DATABASE_URL
set -euo pipefail
port="${MCP_AGENT_TEST_PG_PORT:-54329}"
dir="${MCP_AGENT_TEST_PG_DIR:-/tmp/mcp-agent-pg}"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
bin="$(find_bin)"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "[postgres] installing Debian's postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  bin="$(find_bin)"
fi

as_owner() {
  # PostgreSQL refuses to run as root; the Debian package creates the postgres user.
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

if [ -f "$dir/postmaster.pid" ]; then as_owner "'$bin/pg_ctl' -D '$dir' -m immediate stop" >&2 || true; fi
rm -rf "$dir"
mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_owner "'$bin/initdb' -D '$dir' -A trust -U postgres --no-sync" >/dev/null
as_owner "'$bin/pg_ctl' -D '$dir' -l '$dir/server.log' -w -o \"-k '$dir' -h 127.0.0.1 -p $port -F\" start" >&2
echo "export MCP_AGENT_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres"
echo "export MCP_AGENT_TEST_PG_BIN=$bin"

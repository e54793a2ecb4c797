#!/usr/bin/env bash
# The one entry point of the repo: bootstraps the toolchain, installs, builds, then runs
# a root package.json script. `bash scripts/dev.sh demo`, `bash scripts/dev.sh test`,
# `bash scripts/dev.sh bench retrieval ../shared/bench/retrieval/metatool`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# Pinned here so every machine runs the same toolchain; bump both lines together with the lockfile.
NODE_VERSION=24.21.0
PNPM_VERSION=10.34.8
toolchain="$root/.toolchain"

say() { printf '[dev] %s\n' "$*" >&2; }

# The system Node's major version: the toolchain's own bin is left out of PATH for the check,
# so a shell that already exported .toolchain/bin does not count it as the system's.
node_major() {
  local path
  path="$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$toolchain/bin" | paste -sd: -)"
  PATH="$path" node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

ensure_toolchain() {
  local stamp="$toolchain/.stamp" want use_system_node=0
  if [ "$(node_major)" -ge 24 ]; then use_system_node=1; fi
  want="node=${NODE_VERSION} pnpm=${PNPM_VERSION} system_node=${use_system_node}"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    local arch
    case "$(uname -m)" in
      x86_64) arch=x64 ;;
      aarch64 | arm64) arch=arm64 ;;
      *) say "unsupported CPU $(uname -m): install Node 24 yourself and re-run"; exit 1 ;;
    esac
    local packages=("pnpm@${PNPM_VERSION}")
    if [ "$use_system_node" = 0 ]; then packages+=("node-linux-${arch}@${NODE_VERSION}"); fi
    say "installing ${packages[*]} into .toolchain/ (from the npm registry)"
    rm -rf "$toolchain"
    mkdir -p "$toolchain/bin"
    # A throwaway package.json keeps npm from walking up into the workspace.
    echo '{"private":true}' >"$toolchain/package.json"
    npm install --prefix "$toolchain" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "${packages[@]}" >&2
    if [ "$use_system_node" = 0 ]; then
      ln -sf "../node_modules/node-linux-${arch}/bin/node" "$toolchain/bin/node"
      ln -sf "node-linux-${arch}" "$toolchain/node_modules/node-dist"
    fi
    printf '#!/bin/sh\nexec node "%s/node_modules/pnpm/bin/pnpm.cjs" "$@"\n' "$toolchain" >"$toolchain/bin/pnpm"
    chmod +x "$toolchain/bin/pnpm"
    echo "$want" >"$stamp"
  fi
  export PATH="$toolchain/bin:$PATH"
  if [ -d "$toolchain/node_modules/node-dist" ]; then
    # Native addons that fall back to a source build must compile against Node 24's headers,
    # not the system Node's (this machine's npmrc points nodedir at /usr).
    export npm_config_nodedir="$toolchain/node_modules/node-dist"
  fi
}

# Where the full output of the install is kept (native addons print hundreds of build lines).
logs="$root/.dev-logs"

# What an install is doing now, read from its log: the lifecycle scripts under way (pnpm's
# `<pkg> install$` line without its `install: Done`), else pnpm's latest progress line.
install_progress() {
  [ -f "$1" ] || { echo "starting"; return; }
  awk '
    { gsub(/\033\[[0-9;]*m/, "") }
    /^[^ ]+ [a-z]+\$ / { n = $1; sub(/.*\//, "", n); building[n] = 1 }
    /^[^ ]+ [a-z]+: (Done|Failed)$/ { n = $1; sub(/.*\//, "", n); delete building[n] }
    /^Progress: / { progress = $0; sub(/^Progress: /, "", progress) }
    END {
      for (n in building) names = names (names == "" ? "" : ", ") n;
      if (names != "") print "running the install scripts of " names " (a native addon built from source takes minutes)";
      else if (progress != "") print progress;
      else print "starting";
    }
  ' "$1" 2>/dev/null || true
}

# Runs a command with its output in a log file, showing one line of progress instead (rewritten
# in place on a terminal; a line when it changes, at most every 15 s, elsewhere). On failure the
# whole log is printed, since the cause is in it, and the log is kept either way.
run_logged() {
  local label="$1" log="$2" started=$SECONDS pid status=0 line last="" shown=-15
  shift 2
  mkdir -p "$(dirname "$log")"
  "$@" >"$log" 2>&1 &
  pid=$!
  # A background job of a script ignores Ctrl-C: it is stopped with the script.
  trap 'kill "$pid" 2>/dev/null; exit 130' INT TERM
  while kill -0 "$pid" 2>/dev/null; do
    line="$(install_progress "$log")"
    if [ -t 2 ]; then
      printf '\r\033[K[dev] %s: %s, %ss' "$label" "$line" $((SECONDS - started)) >&2
    elif [ "$line" != "$last" ] && [ $((SECONDS - shown)) -ge 15 ]; then
      say "$label: $line"
      last="$line"
      shown=$SECONDS
    fi
    sleep 1
  done
  wait "$pid" || status=$?
  trap - INT TERM
  if [ -t 2 ]; then printf '\r\033[K' >&2; fi
  if [ "$status" -ne 0 ]; then
    say "$label failed (exit $status). Its full output:"
    cat "$log" >&2
    say "$label failed (exit $status); the output above is kept in $log"
    exit "$status"
  fi
  say "$label: done in $((SECONDS - started)) s (full output in ${log#"$root"/})"
}

ensure_install() {
  local stamp="node_modules/.dev-install-stamp" want
  want="$(node --version) $(cat pnpm-lock.yaml package.json pnpm-workspace.yaml packages/*/package.json apps/*/package.json benchmarks/package.json 2>/dev/null | cksum)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  run_logged "pnpm install --frozen-lockfile" "$logs/install.log" \
    pnpm install --frozen-lockfile --reporter=append-only
  echo "$want" >"$stamp"
}

ensure_build() {
  say "building (tsc --build)"
  pnpm exec tsc --build >&2
}

ensure_toolchain
if [ "${1:-}" = "--toolchain-only" ]; then exit 0; fi
ensure_install
ensure_build
if [ $# -eq 0 ]; then
  say "usage: bash scripts/dev.sh <script> [args…]   (demo, test, bench, lint, format)"
  exit 2
fi
exec pnpm run --silent "$@"

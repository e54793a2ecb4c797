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

ensure_install() {
  local stamp="node_modules/.dev-install-stamp" want
  want="$(node --version) $(cat pnpm-lock.yaml package.json pnpm-workspace.yaml packages/*/package.json apps/*/package.json 2>/dev/null | cksum)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  say "pnpm install --frozen-lockfile"
  pnpm install --frozen-lockfile --reporter=append-only >&2
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

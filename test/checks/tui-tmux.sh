#!/usr/bin/env bash
# Drives OpenClaw's own terminal UI (`openclaw tui` from npm, under Node 24) in tmux against this
# gateway and the fake model: a chat message, /status, /new, checked on the screen
# (test/checks/tui-tmux.check.ts). Not part of `npm test`: it downloads Node 24 and the openclaw
# package from the npm registry. To reuse copies you already have:
#   OPENCLAW_CHECK_NODE=/path/to/node24/bin/node OPENCLAW_CHECK_CLI=/path/to/node_modules/openclaw/openclaw.mjs
# The screens it waited for are written to OPENCLAW_CHECK_SCREENS (default: a temp file, named at the end).
set -euo pipefail
cd "$(dirname "$0")/../.."

NODE24_VERSION=24.22.3
OPENCLAW_VERSION=2026.9.6

command -v tmux >/dev/null 2>&1 || { echo "tui-tmux: tmux is missing (Debian: apt-get install -y tmux)" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/openclaw-tui-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ -z "${OPENCLAW_CHECK_NODE:-}" ]; then
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "tui-tmux: no Node 24 package for $(uname -m)" >&2; exit 1 ;;
  esac
  echo "tui-tmux: fetching node-linux-$arch@$NODE24_VERSION from the npm registry"
  npm install --prefix "$work/node24" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund "node-linux-$arch@$NODE24_VERSION" >/dev/null
  export OPENCLAW_CHECK_NODE="$work/node24/node_modules/node-linux-$arch/bin/node"
fi
if [ -z "${OPENCLAW_CHECK_CLI:-}" ]; then
  echo "tui-tmux: fetching openclaw@$OPENCLAW_VERSION from the npm registry"
  PATH="$(dirname "$OPENCLAW_CHECK_NODE"):$PATH" npm install --prefix "$work/openclaw" --no-save --no-package-lock --no-audit --no-fund "openclaw@$OPENCLAW_VERSION" >/dev/null
  export OPENCLAW_CHECK_CLI="$work/openclaw/node_modules/openclaw/openclaw.mjs"
fi
export OPENCLAW_CHECK_SCREENS="${OPENCLAW_CHECK_SCREENS:-$(mktemp "${TMPDIR:-/tmp}/openclaw-tui-screens.XXXXXX")}"

node build/build.mjs --if-stale
"$OPENCLAW_CHECK_NODE" --version >/dev/null
node node_modules/vitest/vitest.mjs run --config test/checks/vitest.config.ts
echo "tui-tmux: the screens are in $OPENCLAW_CHECK_SCREENS"

#!/usr/bin/env bash
# Drives OpenClaw's own terminal UI (`openclaw tui` from npm, under Node 24) in tmux against this
# gateway and the fake model: a chat message, /status, /new, checked on the screen
# (test/checks/tui-tmux.check.ts). Not part of `npm test`: it downloads Node 24 and the openclaw
# package from the npm registry. To reuse copies you already have:
#   OPENCLAW_CHECK_NODE=/path/to/node24/bin/node OPENCLAW_CHECK_CLI=/path/to/node_modules/openclaw/openclaw.mjs
# The screens it waited for are written to OPENCLAW_CHECK_SCREENS (default: a temp file, named at the end).
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v tmux >/dev/null 2>&1 || { echo "tui-tmux: tmux is missing (Debian: apt-get install -y tmux)" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/openclaw-tui-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT

. test/checks/openclaw-cli-env.sh
export OPENCLAW_CHECK_SCREENS="${OPENCLAW_CHECK_SCREENS:-$(mktemp "${TMPDIR:-/tmp}/openclaw-tui-screens.XXXXXX")}"

node build/build.mjs --if-stale
node node_modules/vitest/vitest.mjs run --config test/checks/vitest.config.ts test/checks/tui-tmux.check.ts
echo "tui-tmux: the screens are in $OPENCLAW_CHECK_SCREENS"

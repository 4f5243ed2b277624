#!/usr/bin/env bash
# Runs OpenClaw's own `openclaw doctor --non-interactive` (from npm, under Node 24) against this
# gateway and the fake model, and checks the memory readiness it prints from the gateway's
# doctor.memory.status (test/checks/openclaw-doctor.check.ts). Not part of `npm test`:
# it downloads Node 24 and the openclaw package from the npm registry. To reuse copies you already have:
#   OPENCLAW_CHECK_NODE=/path/to/node24/bin/node OPENCLAW_CHECK_CLI=/path/to/node_modules/openclaw/openclaw.mjs
set -euo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d "${TMPDIR:-/tmp}/openclaw-doctor-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT

. test/checks/openclaw-cli-env.sh

node build/build.mjs --if-stale
node node_modules/vitest/vitest.mjs run --config test/checks/vitest.config.ts test/checks/openclaw-doctor.check.ts

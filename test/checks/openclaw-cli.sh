#!/usr/bin/env bash
# Runs OpenClaw's own CLI (from npm, under Node 24) against this gateway and the fake model:
# the check files named as arguments, `status` and `doctor` when none are named:
#   status  `openclaw status --all`, `doctor` and `gateway stability` (openclaw-status.check.ts)
#   doctor  `openclaw doctor --non-interactive` and memory readiness (openclaw-doctor.check.ts)
# Not part of `npm test`: it downloads Node 24 and the openclaw package from the npm registry.
# To reuse copies you already have:
#   OPENCLAW_CHECK_NODE=/path/to/node24/bin/node OPENCLAW_CHECK_CLI=/path/to/node_modules/openclaw/openclaw.mjs
set -euo pipefail
cd "$(dirname "$0")/../.."

checks=()
for name in "${@:-status doctor}"; do
  for one in $name; do
    file="test/checks/openclaw-$one.check.ts"
    [ -f "$file" ] || { echo "openclaw-cli.sh: no check named \"$one\" (there is status and doctor)" >&2; exit 2; }
    checks+=("$file")
  done
done

work="$(mktemp -d "${TMPDIR:-/tmp}/openclaw-cli-check.XXXXXX")"
trap 'rm -rf "$work"' EXIT

. test/checks/openclaw-cli-env.sh

node build/build.mjs --if-stale
node node_modules/vitest/vitest.mjs run --config test/checks/vitest.config.ts "${checks[@]}"

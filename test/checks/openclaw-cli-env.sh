# Sourced by the check scripts here, after they set $work (a temp dir they remove): exports
# OPENCLAW_CHECK_NODE (Node 24) and OPENCLAW_CHECK_CLI (the openclaw package's openclaw.mjs),
# downloading them from the npm registry unless they are set already.
NODE24_VERSION=24.22.3
OPENCLAW_VERSION=2026.9.6

if [ -z "${OPENCLAW_CHECK_NODE:-}" ]; then
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "openclaw check: no Node 24 package for $(uname -m)" >&2; exit 1 ;;
  esac
  echo "openclaw check: fetching node-linux-$arch@$NODE24_VERSION from the npm registry"
  npm install --prefix "$work/node24" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund "node-linux-$arch@$NODE24_VERSION" >/dev/null
  export OPENCLAW_CHECK_NODE="$work/node24/node_modules/node-linux-$arch/bin/node"
fi
if [ -z "${OPENCLAW_CHECK_CLI:-}" ]; then
  echo "openclaw check: fetching openclaw@$OPENCLAW_VERSION from the npm registry"
  PATH="$(dirname "$OPENCLAW_CHECK_NODE"):$PATH" npm install --prefix "$work/openclaw" --no-save --no-package-lock --no-audit --no-fund "openclaw@$OPENCLAW_VERSION" >/dev/null
  export OPENCLAW_CHECK_CLI="$work/openclaw/node_modules/openclaw/openclaw.mjs"
fi
"$OPENCLAW_CHECK_NODE" --version >/dev/null

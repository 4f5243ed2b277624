import { formatKeyPath, isPlainObject, type KeyPathSegment } from "./key-path.js";

function pushLeaves(value: unknown, path: KeyPathSegment[], out: string[]): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [key, child] of Object.entries(value)) pushLeaves(child, [...path, key], out);
  } else if (Array.isArray(value) && value.length > 0) {
    value.forEach((item, index) => pushLeaves(item, [...path, index], out));
  } else {
    out.push(formatKeyPath(path));
  }
}

function compare(a: unknown, b: unknown, path: KeyPathSegment[], out: string[]): void {
  if (Object.is(a, b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const inA = Object.hasOwn(a, key);
      const inB = Object.hasOwn(b, key);
      if (inA && inB) compare(a[key], b[key], [...path, key], out);
      else pushLeaves(inA ? a[key] : b[key], [...path, key], out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      if (i < a.length && i < b.length) compare(a[i], b[i], [...path, i], out);
      else pushLeaves(i < a.length ? a[i] : b[i], [...path, i], out);
    }
    return;
  }
  // Different kinds (object vs scalar, added/removed whole subtree) or different scalars.
  if (a === undefined || b === undefined) pushLeaves(a === undefined ? b : a, path, out);
  else out.push(formatKeyPath(path));
}

/** Leaf key paths whose values differ between two configs, sorted. */
export function diffConfigPaths(a: unknown, b: unknown): string[] {
  const out: string[] = [];
  compare(a, b, [], out);
  return [...new Set(out)].sort();
}

// The gateway cannot re-bind or re-auth while running, so gateway.* changes need a restart,
// except: the reload policy itself, the client-side remote credentials (the server never uses
// them), the HTTP endpoint switches and the trusted proxies (read on every request), the auth
// rate limit (re-applied) and the trusted-proxy policy (re-applied; its connections reconnect).
const HOT_GATEWAY_PREFIXES = [
  "gateway.reload",
  "gateway.remote",
  "gateway.http",
  "gateway.auth.rateLimit",
  "gateway.auth.trustedProxy",
  "gateway.auth.identityScopes",
  "gateway.trustedProxies",
  "gateway.allowRealIpFallback",
];

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}

// Keys outside gateway.* read once at start: the log destination is opened once (only its
// level changes live), the webhook routes are registered once with their path and body cap, and
// `env.*` fills the process's environment once (a variable set is never overwritten), and the
// managed browser (`browser.*`) is set up once: whether it is offered, its binary and its policy.
const START_ONLY_PREFIXES = ["logging.file", "logging.maxFileBytes", "logging.redactPatterns", "logging.consoleStyle", "hooks.path", "hooks.maxBodyBytes", "env", "browser"];

/** The subset of changed paths that only take effect after a gateway restart. */
export function restartRequiredPaths(changed: string[]): string[] {
  return changed.filter(
    (path) => (isUnder(path, "gateway") && !HOT_GATEWAY_PREFIXES.some((prefix) => isUnder(path, prefix))) || START_ONLY_PREFIXES.some((prefix) => isUnder(path, prefix)),
  );
}

import type { ConfigIssue } from "./errors.js";
import { findForbiddenKeys } from "./key-path.js";
import { moveLegacyKeys } from "./legacy-keys.js";
import { OpenClawConfigSchema } from "./schema/index.js";
import { findUnknownKeys } from "./unknown-keys.js";

const NOT_A_KEY = "not a config key this gateway knows";

// `$include` names a file whose keys are checked when it is read, not a key of its own.
const INCLUDE_PATH = /(^|\.)\$include$/;

function unknownIn(data: Record<string, unknown>) {
  return findUnknownKeys(OpenClawConfigSchema, moveLegacyKeys(data, [])).filter((key) => !INCLUDE_PATH.test(key.path));
}

/**
 * The keys an edit may not write: a key the schema does not know that the file does not hold
 * already, and `__proto__` / `constructor` / `prototype` anywhere. Loading a hand-written file
 * only warns about its unknown keys (it may be written for a newer OpenClaw), so an edit keeps
 * those; but an edit made through this gateway writes only keys the gateway knows.
 */
export function unwritableKeyIssues(current: Record<string, unknown>, next: Record<string, unknown>): ConfigIssue[] {
  const forbidden = findForbiddenKeys(next);
  const issues: ConfigIssue[] = forbidden.map((path) => ({ path, message: `${NOT_A_KEY} (no config key may be named like an object's prototype); remove it` }));
  const held = new Set(unknownIn(current).map((key) => key.path));
  for (const { path, suggestion } of unknownIn(next)) {
    if (held.has(path) || forbidden.some((f) => path === f || path.startsWith(`${f}.`) || path.startsWith(`${f}[`))) continue;
    const hint = suggestion ? `; did you mean "${suggestion}"?` : "";
    issues.push({ path, message: `${NOT_A_KEY}${hint} (remove it; config.schema lists the keys)` });
  }
  return issues;
}

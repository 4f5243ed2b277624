import { ConfigError } from "../../config/index.js";
import type { GatewayAdminPort } from "./gateway-admin-port.js";

/**
 * A chat command's config edit (`/config`, `/mcp`): the validated write, then the live apply the
 * config.* methods make; the reply says what changed, what waits for a restart, and any warning,
 * or why nothing was written.
 */
export function writeConfigAndReply(admin: GatewayAdminPort, write: () => { warnings: string[] }, done: string): string {
  if (admin.writeRefusal) return admin.writeRefusal;
  let warnings: string[];
  try {
    warnings = write().warnings;
  } catch (err) {
    if (err instanceof ConfigError)
      return `Config not changed: ${err.issues.length ? err.issues.map((i) => `${i.path ? `${i.path}: ` : ""}${i.message}`).join("; ") : err.message}`;
    throw err;
  }
  const outcome = admin.configWritten();
  const waits = outcome.restartRequiredPaths.length
    ? ` ${outcome.restartRequiredPaths.join(", ")} take${outcome.restartRequiredPaths.length === 1 ? "s" : ""} effect after a restart (/restart).`
    : "";
  const applied = outcome.applied ? " Applied." : " Saved; hot reload is off (gateway.reload.mode), so it applies after a restart.";
  return `${done}${applied}${waits}${warnings.length ? `\nWarnings: ${warnings.join("; ")}` : ""}`;
}

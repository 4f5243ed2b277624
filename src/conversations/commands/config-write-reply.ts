import { ConfigError } from "../../config/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";
import type { GatewayAdminPort } from "./gateway-admin-port.js";

/** What a chat sees in place of a secret (the file keeps the value). */
export const HIDDEN_IN_CHAT = "[hidden]";

/**
 * The gateway's admin port for an owner's config command, or the reply when there is none: the
 * command `/<name>` is off unless `commands.<name>: true`, and a surface without the port cannot write.
 */
export function configCommandAdmin(ctx: ChatCommandContext, command: "config" | "mcp"): GatewayAdminPort | string {
  if (ctx.config().commands?.[command] !== true) return `/${command} is off on this gateway. The owner can enable it with commands.${command}: true (docs/configuration.md).`;
  return ctx.admin ?? `/${command} is not available here.`;
}

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

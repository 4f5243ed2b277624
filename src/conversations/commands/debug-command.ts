import { getConfigValue, parseCliValue, REDACTED, redactConfig, RuntimeOverrides } from "../../config/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";
import { HIDDEN_IN_CHAT } from "./config-write-reply.js";
import type { RuntimeOverrideChange } from "./gateway-admin-port.js";

const USAGE = "Usage: /debug show | set <path>=<value> | unset <path> | reset";
const RUNTIME_ONLY = "runtime only: the config file is unchanged, and a restart drops it";

/**
 * `/debug show|set|unset|reset`: config values that hold in memory only, laid over the config
 * file each time it is read, so the owner can try a setting live without editing the file. Each
 * change is validated with the file under it and applied as a hot reload; a key read only at
 * start is refused. Off unless `commands.debug: true`; owner-only.
 */
export function runDebugCommand(args: string, ctx: ChatCommandContext): string {
  if (ctx.config().commands?.debug !== true) return "/debug is off on this gateway. The owner can enable it with commands.debug: true (docs/configuration.md).";
  const admin = ctx.admin;
  if (!admin) return "/debug is not available here.";
  const overrides = admin.runtimeOverrides();
  const [verb = "show"] = args.trim().split(/\s+/).filter(Boolean);
  const operand = args.trim().slice(verb.length).trim();
  const lower = verb.toLowerCase();
  if (lower === "show") {
    const entries = overrides.list();
    if (entries.length === 0) return "No runtime overrides: the gateway runs with its config file as it is.";
    return `Runtime overrides (${RUNTIME_ONLY}):\n${entries.map((entry) => `${entry.path} = ${shown(entry.path, entry.value)}`).join("\n")}`;
  }
  if (!["set", "unset", "reset"].includes(lower)) return USAGE;
  if (admin.writeRefusal) return admin.writeRefusal;
  if (lower === "reset") {
    const count = overrides.list().length;
    return reply(
      overrides.reset(),
      count === 0 ? "There were no runtime overrides." : `Cleared ${count} runtime override${count === 1 ? "" : "s"}: the config file applies as it is.`,
    );
  }
  if (lower === "unset") {
    if (!operand || /\s/.test(operand)) return "Usage: /debug unset <path>";
    return reply(overrides.unset(operand), `Removed the runtime override of ${operand}.`);
  }
  const eq = operand.indexOf("=");
  if (eq <= 0 || !operand.slice(eq + 1).trim()) return "Usage: /debug set <path>=<value> (JSON for numbers, booleans, lists and objects)";
  const path = operand.slice(0, eq).trim();
  const value = parseCliValue(operand.slice(eq + 1).trim());
  return reply(overrides.set(path, value), `Set ${path} = ${shown(path, value)} (${RUNTIME_ONLY}).`);
}

function reply(change: RuntimeOverrideChange, done: string): string {
  if (!change.ok) return `Not changed: ${change.message}`;
  return `${done}${change.changedPaths.length > 0 ? ` Applied: ${change.changedPaths.join(", ")}.` : " No setting changed."}`;
}

/**
 * The value as a chat may see it: placed at its path and redacted as `config.get` redacts the
 * config (secret-looking keys, and every value of an env map), so a secret is hidden wherever it sits.
 */
function shown(path: string, value: unknown): string {
  const placed = RuntimeOverrides.none.with(path, value).applyTo({});
  return JSON.stringify(getConfigValue(redactConfig(placed), path).value).replaceAll(REDACTED, HIDDEN_IN_CHAT);
}

import { getConfigValue, isSecretEntry, parseCliValue, readConfigFileSnapshot, REDACTED, setConfigValueInFile, unsetConfigValueInFile } from "../../config/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";
import { configCommandAdmin, HIDDEN_IN_CHAT, writeConfigAndReply } from "./config-write-reply.js";
import type { GatewayAdminPort } from "./gateway-admin-port.js";

/** Replies stay readable in a chat: a longer value is cut and says how to see one key. */
const MAX_SHOW_CHARS = 3_500;
const USAGE = "Usage: /config show [path] | get <path> | set <path>=<value> | unset <path>";

/**
 * `/config show|get|set|unset …`: the gateway's config file, read redacted and changed through
 * the same validated write as `openclaw config set` (the whole result is checked before the file
 * is replaced), then applied live as `config.set` does. Off unless `commands.config: true`.
 */
export function runConfigCommand(args: string, ctx: ChatCommandContext): string {
  const admin = configCommandAdmin(ctx, "config");
  if (typeof admin === "string") return admin;
  const [verb = "show", ...rest] = args.trim().split(/\s+/).filter(Boolean);
  const operand = args.trim().slice(verb.length).trim();
  switch (verb.toLowerCase()) {
    case "show":
    case "get":
      if (verb.toLowerCase() === "get" && !operand) return "Usage: /config get <path>";
      return showConfig(admin, operand);
    case "set":
      return setConfig(admin, operand);
    case "unset":
      if (!operand || rest.length !== 1) return "Usage: /config unset <path>";
      return writeConfigAndReply(admin, () => unsetConfigValueInFile(admin.configFilePath(), operand, process.env), `Removed ${operand}.`);
    default:
      return USAGE;
  }
}

function showConfig(admin: GatewayAdminPort, keyPath: string): string {
  let snapshot;
  try {
    snapshot = readConfigFileSnapshot(admin.configFilePath(), process.env);
  } catch (err) {
    return `Cannot read the config: ${(err as Error).message}`;
  }
  if (snapshot.parsed === null) return `The config file does not parse; fix it first: ${snapshot.issues.map((i) => i.message).join("; ")}`;
  const found = keyPath ? getConfigValue(snapshot.parsed, keyPath) : { found: true, value: snapshot.parsed };
  if (!found.found) return `${keyPath} is not set in the config file.`;
  const json = typeof found.value === "string" ? found.value : JSON.stringify(found.value, null, 2);
  const text = json.replaceAll(REDACTED, HIDDEN_IN_CHAT);
  const shown = text.length > MAX_SHOW_CHARS ? `${text.slice(0, MAX_SHOW_CHARS)}\n… (${text.length - MAX_SHOW_CHARS} more characters; /config show <path> shows one key)` : text;
  return `${keyPath || "Config"}${keyPath ? " =" : ` (${snapshot.exists ? "secrets hidden" : "no file yet: defaults"})`}:\n${shown}`;
}

function setConfig(admin: GatewayAdminPort, operand: string): string {
  const eq = operand.indexOf("=");
  const space = operand.search(/\s/);
  // `path=value` (OpenClaw's form) or `path value`.
  const cut = eq > 0 && (space < 0 || eq < space) ? eq : space;
  if (cut <= 0) return "Usage: /config set <path>=<value> (JSON for numbers, booleans, lists and objects)";
  const keyPath = operand.slice(0, cut).trim();
  const raw = operand.slice(cut + 1).trim();
  if (!raw) return "Usage: /config set <path>=<value> (JSON for numbers, booleans, lists and objects)";
  const value = parseCliValue(raw);
  const lastKey = keyPath.split(".").pop() ?? keyPath;
  const shown = isSecretEntry(lastKey, value) ? HIDDEN_IN_CHAT : JSON.stringify(value);
  // As the config.* methods: a chat may set only keys this gateway knows.
  return writeConfigAndReply(admin, () => setConfigValueInFile(admin.configFilePath(), keyPath, value, process.env), `Set ${keyPath} = ${shown}.`);
}

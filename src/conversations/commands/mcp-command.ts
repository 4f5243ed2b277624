import { describeMcpServer, parseMcpServerDefinition, redactMcpServer } from "../../agents/mcp/mcp-server-definition.js";
import { formatKeyPath, readConfigFileSnapshot, REDACTED, setConfigValueInFile, unsetConfigValueInFile, type OpenClawConfig } from "../../config/index.js";
import type { ChatCommandContext } from "./chat-command-registry.js";
import { configCommandAdmin, HIDDEN_IN_CHAT, writeConfigAndReply } from "./config-write-reply.js";
import type { GatewayAdminPort } from "./gateway-admin-port.js";

type McpServers = NonNullable<NonNullable<OpenClawConfig["mcp"]>["servers"]>;

const USAGE = "Usage: /mcp show [name] | get <name> | set <name>=<json> | unset <name>";

/**
 * `/mcp show|get|set|unset …`: the MCP servers of `mcp.servers`, shown with credentials hidden
 * (env, headers, credential flags in args) and saved through the same validated write as
 * `openclaw mcp set`, then applied live (a changed server restarts at its next use). Off unless
 * `commands.mcp: true`; the owner's only.
 */
export function runMcpCommand(args: string, ctx: ChatCommandContext): string {
  const admin = configCommandAdmin(ctx, "mcp");
  if (typeof admin === "string") return admin;
  const trimmed = args.trim();
  const verb = (trimmed.split(/\s+/)[0] ?? "").toLowerCase() || "show";
  const operand = trimmed.slice(verb.length).trim();
  switch (verb) {
    case "show":
    case "get":
      if (verb === "get" && !operand) return "Usage: /mcp get <name>";
      return showServers(admin, operand);
    case "set":
      return setServer(admin, operand);
    case "unset": {
      if (!operand || /\s/.test(operand)) return "Usage: /mcp unset <name>";
      const servers = savedServers(admin);
      if (typeof servers === "string") return servers;
      if (!Object.hasOwn(servers, operand)) return `No MCP server "${operand}" in mcp.servers (/mcp show lists them).`;
      return writeConfigAndReply(
        admin,
        () => unsetConfigValueInFile(admin.configFilePath(), formatKeyPath(["mcp", "servers", operand]), process.env),
        `Removed MCP server "${operand}".`,
      );
    }
    default:
      return USAGE;
  }
}

/** The servers of the config in force (its `$include`s read), or why they cannot be read. */
function savedServers(admin: GatewayAdminPort): McpServers | string {
  let snapshot: ReturnType<typeof readConfigFileSnapshot>;
  try {
    snapshot = readConfigFileSnapshot(admin.configFilePath(), process.env);
  } catch (err) {
    return `Cannot read the config: ${(err as Error).message}`;
  }
  if (!snapshot.config) return `The config file does not load; fix it first: ${snapshot.issues.map((issue) => issue.message).join("; ")}`;
  return snapshot.config.mcp?.servers ?? {};
}

function showServers(admin: GatewayAdminPort, name: string): string {
  const servers = savedServers(admin);
  if (typeof servers === "string") return servers;
  if (name) {
    if (!Object.hasOwn(servers, name)) return `No MCP server "${name}" in mcp.servers (/mcp show lists them).`;
    return `MCP server ${name}:\n${JSON.stringify(redactMcpServer(servers[name]!), null, 2).replaceAll(REDACTED, HIDDEN_IN_CHAT)}`;
  }
  const names = Object.keys(servers).sort();
  if (names.length === 0) return 'No MCP servers (mcp.servers). Add one: /mcp set <name>={"command":"npx","args":["-y","<package>"]}';
  const lines = names.map((serverName) => describeMcpServer(serverName, servers[serverName]!).replaceAll(REDACTED, HIDDEN_IN_CHAT));
  return `MCP servers:\n${lines.join("\n")}`;
}

function setServer(admin: GatewayAdminPort, operand: string): string {
  // `name={...}` (OpenClaw's form) or `name {...}`.
  const match = /^([^\s=]+)\s*(?:=|\s)\s*([\s\S]+)$/.exec(operand);
  if (!match) return 'Usage: /mcp set <name>=<json>, such as /mcp set fetch={"command":"uvx","args":["mcp-server-fetch"]}';
  const [, name, json] = match as unknown as [string, string, string];
  const parsed = parseMcpServerDefinition(json);
  if ("problem" in parsed) return `Not saved: ${parsed.problem}.`;
  return writeConfigAndReply(
    admin,
    () => setConfigValueInFile(admin.configFilePath(), formatKeyPath(["mcp", "servers", name]), parsed.server, process.env),
    `Saved MCP server "${name}".`,
  );
}

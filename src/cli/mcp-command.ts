import { probeMcpServers } from "../agents/mcp/mcp-probe.js";
import {
  ConfigError,
  defaultConfigPathForWrite,
  formatKeyPath,
  loadConfig,
  redactConfig,
  resolveConfigPath,
  resolveStateDir,
  setConfigValueInFile,
  unsetConfigValueInFile,
  type OpenClawConfig,
} from "../config/index.js";
import { CliError, printJson } from "./output.js";

type McpServers = NonNullable<NonNullable<OpenClawConfig["mcp"]>["servers"]>;

function loadServers(): { config: OpenClawConfig; servers: McpServers } {
  const { config } = loadConfig({ stateDir: resolveStateDir(process.env), env: process.env });
  return { config, servers: config.mcp?.servers ?? {} };
}

/** `openclaw mcp list [--json]`: the saved servers, sorted, without connecting; secrets redacted. */
export function mcpListCommand(flags: { json?: boolean }): void {
  const { servers } = loadServers();
  const shown = redactConfig(servers);
  const names = Object.keys(shown).sort();
  if (flags.json) return printJson({ servers: names.map((name) => ({ name, ...shown[name] })) });
  if (names.length === 0) return void process.stdout.write('No MCP servers (mcp.servers). Add one: openclaw mcp set <name> \'{"command":"npx","args":["-y","<package>"]}\'\n');
  const lines = names.map((name) => {
    const server = shown[name]!;
    const where = server.command ? `stdio: ${[server.command, ...(server.args ?? [])].join(" ")}` : `${server.transport ?? "streamable-http"}: ${server.url}`;
    return `${name}${server.enabled === false ? " (disabled)" : ""}  ${where}`;
  });
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** `openclaw mcp show [name] [--json]`: one server's definition, or all of them; secrets redacted. */
export function mcpShowCommand(name: string | undefined, flags: { json?: boolean }): void {
  const { servers } = loadServers();
  if (name !== undefined && !Object.hasOwn(servers, name)) throw new CliError(`no MCP server "${name}" in mcp.servers (openclaw mcp list shows them)`);
  const shown = redactConfig(name === undefined ? servers : servers[name]);
  if (flags.json) return printJson(shown);
  process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
}

/** `openclaw mcp set <name> <json>`: saves a server definition (validated like every config edit; `type: "http"` is read as streamable-http). */
export function mcpSetCommand(name: string, json: string, flags: { json?: boolean }): void {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new CliError(`the server definition is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new CliError('the server definition must be one JSON object, such as {"command":"uvx","args":["mcp-server-fetch"]}');
  const server = { ...(value as Record<string, unknown>) };
  // OpenClaw's CLI-native spelling of a Streamable HTTP server.
  if (server.type === "http" || server.type === "streamable-http" || server.type === "sse") {
    if (server.transport === undefined) server.transport = server.type === "sse" ? "sse" : "streamable-http";
    delete server.type;
  }
  editConfig((file) => setConfigValueInFile(file, formatKeyPath(["mcp", "servers", name]), server, process.env), `Saved MCP server "${name}"`, flags);
}

/** `openclaw mcp unset <name>`: removes a server definition; an unknown name is an error. */
export function mcpUnsetCommand(name: string, flags: { json?: boolean }): void {
  if (!Object.hasOwn(loadServers().servers, name)) throw new CliError(`no MCP server "${name}" in mcp.servers (openclaw mcp list shows them)`);
  editConfig((file) => unsetConfigValueInFile(file, formatKeyPath(["mcp", "servers", name]), process.env), `Removed MCP server "${name}"`, flags);
}

function editConfig(edit: (file: string) => { warnings: string[] }, text: string, flags: { json?: boolean }): void {
  const stateDir = resolveStateDir(process.env);
  const file = resolveConfigPath(stateDir, process.env) ?? defaultConfigPathForWrite(stateDir);
  let warnings: string[];
  try {
    ({ warnings } = edit(file));
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`not saved: ${err.message}`);
    throw err;
  }
  if (flags.json) return printJson({ ok: true, file, warnings });
  process.stdout.write(`${text} in ${file}\n`);
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}

/** `openclaw mcp probe [name] [--json]`: starts each enabled server (or one), lists its tools, closes it; exit 1 when one fails. */
export async function mcpProbeCommand(name: string | undefined, flags: { json?: boolean }): Promise<void> {
  const { config, servers } = loadServers();
  if (name !== undefined && !Object.hasOwn(servers, name)) throw new CliError(`no MCP server "${name}" in mcp.servers (openclaw mcp list shows them)`);
  if (name !== undefined && servers[name]!.enabled === false) throw new CliError(`MCP server "${name}" is disabled: set mcp.servers.${name}.enabled to true to use it`);
  const results = await probeMcpServers(config, name);
  if (results.some((result) => !result.ok)) process.exitCode = 1;
  if (flags.json) return printJson({ servers: results });
  if (results.length === 0) return void process.stdout.write("No enabled MCP servers to probe (mcp.servers).\n");
  const lines = results.map((result) =>
    result.ok
      ? `${result.server}: ok, ${result.tools.length} tool(s)${result.hiddenByFilter ? ` (${result.hiddenByFilter} hidden by toolFilter)` : ""}: ${result.tools.join(", ") || "(none)"}`
      : `${result.server}: FAILED: ${result.error}`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

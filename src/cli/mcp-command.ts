import { probeMcpServers } from "../agents/mcp/mcp-probe.js";
import { describeMcpServer, parseMcpServerDefinition, redactMcpServer, redactMcpServers } from "../agents/mcp/mcp-server-definition.js";
import {
  ConfigError,
  defaultConfigPathForWrite,
  formatKeyPath,
  loadConfig,
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
  const shown = redactMcpServers(servers);
  const names = Object.keys(shown).sort();
  if (flags.json) return printJson({ servers: names.map((name) => ({ name, ...shown[name] })) });
  if (names.length === 0) return void process.stdout.write('No MCP servers (mcp.servers). Add one: openclaw mcp set <name> \'{"command":"npx","args":["-y","<package>"]}\'\n');
  const lines = names.map((name) => describeMcpServer(name, servers[name]!));
  process.stdout.write(`${lines.join("\n")}\n`);
}

/** `openclaw mcp show [name] [--json]`: one server's definition, or all of them; secrets redacted. */
export function mcpShowCommand(name: string | undefined, flags: { json?: boolean }): void {
  const { servers } = loadServers();
  if (name !== undefined && !Object.hasOwn(servers, name)) throw new CliError(`no MCP server "${name}" in mcp.servers (openclaw mcp list shows them)`);
  const shown = name === undefined ? redactMcpServers(servers) : redactMcpServer(servers[name]!);
  if (flags.json) return printJson(shown);
  process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
}

/** `openclaw mcp set <name> <json>`: saves a server definition (validated like every config edit; `type: "http"` is read as streamable-http). */
export function mcpSetCommand(name: string, json: string, flags: { json?: boolean }): void {
  const parsed = parseMcpServerDefinition(json);
  if ("problem" in parsed) throw new CliError(parsed.problem);
  editConfig((file) => setConfigValueInFile(file, formatKeyPath(["mcp", "servers", name]), parsed.server, process.env), `Saved MCP server "${name}"`, flags);
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

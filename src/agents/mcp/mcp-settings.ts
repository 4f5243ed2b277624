import os from "node:os";
import path from "node:path";
import type { OpenClawConfig } from "../../config/index.js";
import { perConfig } from "../../config/per-config.js";
import { expandHome } from "../../infra/home-path.js";
import { mcpServerPrefix } from "./mcp-tool-names.js";

/** How long starting a server and its handshake may take, unless `connectionTimeoutMs` says otherwise. */
export const MCP_DEFAULT_CONNECTION_TIMEOUT_MS = 30_000;
/** How long one request (a tool call, a tool list) may take, unless `requestTimeoutMs` says otherwise (the SDK's default). */
export const MCP_DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

interface CommonSettings {
  name: string;
  /** Its tools' names start with `<prefix>__`. */
  prefix: string;
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  toolFilter?: { include?: readonly string[]; exclude?: readonly string[] };
  /** The definition as written, to tell when a reload changed it. */
  fingerprint: string;
}

export type McpServerSettings =
  | (CommonSettings & { kind: "stdio"; command: string; args: readonly string[]; env: Readonly<Record<string, string>>; cwd?: string })
  | (CommonSettings & { kind: "http"; url: string; transport: "streamable-http" | "sse"; headers: Readonly<Record<string, string>> });

/**
 * The enabled servers of `mcp.servers`, in the order written (the config loader checked each has
 * a command or a url): worked out once per loaded config, since every turn asks.
 */
export const mcpServerSettings = perConfig((config): readonly McpServerSettings[] => deriveServerSettings(config));

function deriveServerSettings(config: OpenClawConfig): McpServerSettings[] {
  const servers: McpServerSettings[] = [];
  const prefixes = new Set<string>();
  for (const [name, server] of Object.entries(config.mcp?.servers ?? {})) {
    if (server.enabled === false) continue;
    // Two names with one prefix (`Docs`, `docs`): the later one gets `-2`, as OpenClaw suffixes duplicates.
    let prefix = mcpServerPrefix(name);
    for (let n = 2; prefixes.has(prefix); n++) prefix = `${mcpServerPrefix(name)}-${n}`;
    prefixes.add(prefix);
    const common: CommonSettings = {
      name,
      prefix,
      requestTimeoutMs: server.requestTimeoutMs ?? MCP_DEFAULT_REQUEST_TIMEOUT_MS,
      connectionTimeoutMs: server.connectionTimeoutMs ?? MCP_DEFAULT_CONNECTION_TIMEOUT_MS,
      ...(server.toolFilter ? { toolFilter: server.toolFilter } : {}),
      fingerprint: JSON.stringify(server),
    };
    if (server.command) {
      const cwd = server.cwd ? path.resolve(expandHome(server.cwd, os.homedir())) : undefined;
      servers.push({ ...common, kind: "stdio", command: server.command, args: server.args ?? [], env: server.env ?? {}, ...(cwd ? { cwd } : {}) });
    } else if (server.url) servers.push({ ...common, kind: "http", url: server.url, transport: server.transport ?? "streamable-http", headers: server.headers ?? {} });
  }
  return servers;
}

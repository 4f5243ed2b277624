import type { OpenClawConfig } from "../../config/index.js";
import type { McpConnection as McpConnectionType } from "./mcp-connection.js";
import { mcpServerSettings } from "./mcp-settings.js";
import { mcpUtilityTools } from "./mcp-utility-tools.js";
import { mcpToolName, passesToolFilter } from "./mcp-tool-names.js";

/** What `openclaw mcp probe` found for one server: its tools as the agent would see them, or why it failed. */
export type McpProbeResult = { server: string; ok: true; tools: string[]; hiddenByFilter: number } | { server: string; ok: false; error: string };

/**
 * Starts (or reaches) each enabled server, or only `name`, lists its tools and closes it again,
 * all at once: a connection of its own, not the gateway's.
 */
export async function probeMcpServers(config: OpenClawConfig, name?: string): Promise<McpProbeResult[]> {
  const servers = mcpServerSettings(config).filter((server) => name === undefined || server.name === name);
  const { McpConnection } = await import("./mcp-connection.js");
  return Promise.all(
    servers.map(async (settings): Promise<McpProbeResult> => {
      let connection: McpConnectionType | undefined;
      try {
        connection = await McpConnection.open(settings, { onStderr: () => {}, onToolsChanged: () => {}, onClosed: () => {} });
        const live = connection;
        const names = [...(await connection.listTools()).map((tool) => tool.name), ...mcpUtilityTools(settings.name, connection.offers(), () => live).map((tool) => tool.mcpName)];
        const kept = names.filter((name) => passesToolFilter(name, settings.toolFilter));
        const taken = new Set<string>();
        const tools = kept.map((name) => {
          const toolName = mcpToolName(settings.prefix, name, taken);
          taken.add(toolName);
          return toolName;
        });
        return { server: settings.name, ok: true, tools, hiddenByFilter: names.length - kept.length };
      } catch (err) {
        return { server: settings.name, ok: false, error: (err as Error).message };
      } finally {
        await connection?.close();
      }
    }),
  );
}

import type { OpenClawConfig } from "../../config/index.js";
import type { Logger } from "../../infra/logger.js";
import type { AgentTool, McpToolHost } from "../types.js";
import type { mcpAgentTool } from "./mcp-agent-tool.js";
import type { mcpUtilityTools } from "./mcp-utility-tools.js";
import type { McpConnection, McpToolInfo } from "./mcp-connection.js";
import { mcpServerSettings, type McpServerSettings } from "./mcp-settings.js";
import { mcpToolName, passesToolFilter } from "./mcp-tool-names.js";

/** A server that could not start is tried again after this long, so a broken one does not slow every turn. */
export const MCP_RETRY_MS = 30_000;

const NO_TOOLS: readonly AgentTool[] = Object.freeze([]);

interface ServerState {
  settings: McpServerSettings;
  connection?: McpConnection;
  connecting?: Promise<void>;
  tools: readonly AgentTool[];
  /** Before this time a failed server is not tried again. */
  retryAfter: number;
  /** The server said its tool list changed: listed again at the next turn. */
  stale: boolean;
}

/**
 * The gateway's MCP servers (`mcp.servers`), one connection each, shared by every session and
 * agent. Nothing starts until a turn asks for the tools; a server then starts (or is reached) and
 * its tools are listed once, and again when it says they changed. A server that fails to start
 * is left out, with a warning naming it and why, and tried again after 30 s; one that exits is
 * started again by the next turn. A reload that changes or removes a server's definition closes
 * its connection. `close` ends every server (the gateway's shutdown).
 */
export class McpHub implements McpToolHost {
  private readonly servers = new Map<string, ServerState>();
  private combined: readonly AgentTool[] = NO_TOOLS;
  private combinedParts: readonly (readonly AgentTool[])[] = [];
  private closing = false;

  constructor(
    private readonly logger: Pick<Logger, "info" | "warn" | "debug">,
    private readonly now: () => number = Date.now,
  ) {}

  hasServers(config: OpenClawConfig): boolean {
    return Object.values(config.mcp?.servers ?? {}).some((server) => server.enabled !== false);
  }

  async tools(config: OpenClawConfig): Promise<readonly AgentTool[]> {
    if (this.closing) return NO_TOOLS;
    const wanted = mcpServerSettings(config);
    this.retire(wanted);
    await Promise.all(wanted.map((settings) => this.ready(settings)));
    return this.combine(wanted.map((settings) => this.servers.get(settings.name)?.tools ?? NO_TOOLS));
  }

  async close(): Promise<void> {
    this.closing = true;
    const states = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(
      states.map(async (state) => {
        await state.connecting?.catch(() => {});
        await state.connection?.close();
      }),
    );
  }

  /** Closes the servers a reload removed or changed. */
  private retire(wanted: readonly McpServerSettings[]): void {
    const byName = new Map(wanted.map((settings) => [settings.name, settings]));
    for (const [name, state] of this.servers) {
      if (byName.get(name)?.fingerprint === state.settings.fingerprint) continue;
      this.servers.delete(name);
      void state.connecting?.then(() => state.connection?.close());
      void state.connection?.close();
      this.logger.info({ mcpServer: name }, byName.has(name) ? "MCP server definition changed: reconnecting" : "MCP server removed from the config: closed");
    }
  }

  private async ready(settings: McpServerSettings): Promise<void> {
    let state = this.servers.get(settings.name);
    if (!state) this.servers.set(settings.name, (state = { settings, tools: NO_TOOLS, retryAfter: 0, stale: false }));
    if (state.connecting) return state.connecting;
    if (state.connection && !state.connection.closed && !state.stale) return;
    if (this.now() < state.retryAfter) return;
    const current = state;
    state.connecting = this.connect(current).finally(() => {
      current.connecting = undefined;
    });
    return state.connecting;
  }

  private async connect(state: ServerState): Promise<void> {
    const { settings } = state;
    const log = { mcpServer: settings.name };
    try {
      // The SDK and the schema validator load with the first server, never for a gateway without one.
      const [{ McpConnection }, { mcpAgentTool: toAgentTool }, { mcpUtilityTools: utilityTools }] = await Promise.all([
        import("./mcp-connection.js"),
        import("./mcp-agent-tool.js"),
        import("./mcp-utility-tools.js"),
      ]);
      let connection = state.connection && !state.connection.closed ? state.connection : undefined;
      if (!connection) {
        connection = await McpConnection.open(settings, {
          onStderr: (line) => this.logger.debug({ ...log, stderr: line }, "MCP server stderr"),
          onToolsChanged: () => {
            state.stale = true;
          },
          onClosed: () => {
            state.tools = NO_TOOLS;
            state.connection = undefined;
            if (!this.closing && this.servers.get(settings.name) === state)
              this.logger.warn(log, `MCP server "${settings.name}" closed its connection; the next turn starts it again`);
          },
        });
        state.connection = connection;
      }
      state.stale = false;
      const listed = await connection.listTools();
      const utilities = utilityTools(settings.name, connection.offers(), () => this.live(state));
      state.tools = this.agentTools(state, listed, toAgentTool, utilities);
      state.retryAfter = 0;
      this.logger.info({ ...log, tools: state.tools.length }, "MCP server ready");
    } catch (err) {
      state.tools = NO_TOOLS;
      state.retryAfter = this.now() + MCP_RETRY_MS;
      this.logger.warn(
        { ...log, err: (err as Error).message },
        `MCP server "${settings.name}" is not available: ${(err as Error).message}. Its tools are left out; it is tried again in ${MCP_RETRY_MS / 1000} s (check mcp.servers.${settings.name}).`,
      );
    }
  }

  /** The server's tools, then the utility tools for its resources and prompts, each passed through its `toolFilter`. */
  private agentTools(state: ServerState, listed: readonly McpToolInfo[], toAgentTool: typeof mcpAgentTool, utilities: ReturnType<typeof mcpUtilityTools>): readonly AgentTool[] {
    const { settings } = state;
    const taken = new Set<string>();
    const tools: AgentTool[] = [];
    const add = (mcpName: string, build: (name: string) => AgentTool) => {
      if (!passesToolFilter(mcpName, settings.toolFilter)) return;
      const name = mcpToolName(settings.prefix, mcpName, taken);
      taken.add(name);
      tools.push(build(name));
    };
    for (const info of listed) add(info.name, (name) => toAgentTool(name, settings.name, info, (toolName, args, signal) => this.call(state, toolName, args, signal)));
    for (const utility of utilities) add(utility.mcpName, utility.build);
    return Object.freeze(tools);
  }

  private call(state: ServerState, toolName: string, args: Record<string, unknown>, signal: AbortSignal) {
    return this.live(state).callTool(toolName, args, signal);
  }

  /** The server's open connection; a call to a server that went away fails, saying so. */
  private live(state: ServerState): McpConnection {
    const connection = state.connection;
    if (!connection || connection.closed) throw new Error(`MCP server "${state.settings.name}" is not connected (it exited or was closed); the next turn starts it again`);
    return connection;
  }

  /** The same array while no server's tools changed, so the turn's tool-policy cache keeps hitting. */
  private combine(parts: readonly (readonly AgentTool[])[]): readonly AgentTool[] {
    if (parts.length === this.combinedParts.length && parts.every((part, i) => part === this.combinedParts[i])) return this.combined;
    this.combinedParts = parts;
    this.combined = Object.freeze(parts.flat());
    return this.combined;
  }
}

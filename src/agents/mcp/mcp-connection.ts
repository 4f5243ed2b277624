import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ReadResourceResult,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerSettings } from "./mcp-settings.js";

/** One tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** The stderr lines kept for a failure message: a server that dies usually says why there. */
const STDERR_TAIL_LINES = 8;
/** A catalog bigger than this is cut (a server that pages forever cannot hang the turn). */
const MAX_LIST_PAGES = 20;
const CLIENT_INFO = { name: "openclaw-gateway", version: "1" };

/**
 * A live session with one MCP server on the official SDK's client: started as a child process
 * (stdio, with only a minimal environment plus the server's `env`) or reached over Streamable
 * HTTP or SSE. `onClosed` fires once when the server goes away (exit, broken connection, close).
 */
export class McpConnection {
  private closedFlag = false;
  private readonly stderrTail: string[] = [];

  private constructor(
    private readonly client: Client,
    readonly settings: McpServerSettings,
  ) {}

  static async open(settings: McpServerSettings, hooks: { onStderr(line: string): void; onToolsChanged(): void; onClosed(): void }): Promise<McpConnection> {
    const transport = createTransport(settings);
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const connection = new McpConnection(client, settings);
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on("data", (chunk: Buffer) => {
        for (const line of chunk.toString("utf8").split(/\r?\n/)) {
          if (!line.trim()) continue;
          connection.stderrTail.push(line);
          if (connection.stderrTail.length > STDERR_TAIL_LINES) connection.stderrTail.shift();
          hooks.onStderr(line);
        }
      });
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => hooks.onToolsChanged());
    client.onclose = () => {
      if (connection.closedFlag) return;
      connection.closedFlag = true;
      hooks.onClosed();
    };
    try {
      await client.connect(transport, { timeout: settings.connectionTimeoutMs });
    } catch (err) {
      connection.closedFlag = true;
      await client.close().catch(() => {});
      throw new Error(`${(err as Error).message}${connection.stderrText()}`);
    }
    return connection;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Every tool the server lists, page by page. */
  async listTools(): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const listed = await this.client.listTools(cursor ? { cursor } : {}, { timeout: this.settings.requestTimeoutMs });
      for (const tool of listed.tools)
        tools.push({
          name: tool.name,
          ...(tool.title ? { title: tool.title } : {}),
          ...(tool.description ? { description: tool.description } : {}),
          inputSchema: tool.inputSchema as Record<string, unknown>,
        });
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** Whether the server offers resources and prompts (its initialize answer). */
  offers(): { resources: boolean; prompts: boolean } {
    const capabilities = this.client.getServerCapabilities();
    return { resources: capabilities?.resources !== undefined, prompts: capabilities?.prompts !== undefined };
  }

  async listResources(cursor: string | undefined, signal: AbortSignal): Promise<ListResourcesResult> {
    return this.client.listResources(cursor ? { cursor } : {}, { signal, timeout: this.settings.requestTimeoutMs });
  }

  async readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    return this.client.readResource({ uri }, { signal, timeout: this.settings.requestTimeoutMs });
  }

  async listPrompts(cursor: string | undefined, signal: AbortSignal): Promise<ListPromptsResult> {
    return this.client.listPrompts(cursor ? { cursor } : {}, { signal, timeout: this.settings.requestTimeoutMs });
  }

  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult> {
    return this.client.getPrompt({ name, arguments: args }, { signal, timeout: this.settings.requestTimeoutMs });
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    return (await this.client.callTool({ name, arguments: args }, undefined, { signal, timeout: this.settings.requestTimeoutMs })) as CallToolResult;
  }

  async close(): Promise<void> {
    this.closedFlag = true;
    await this.client.close().catch(() => {});
  }

  /** The server's last stderr lines, as a suffix for an error message. */
  stderrText(): string {
    return this.stderrTail.length > 0 ? ` (its stderr: ${this.stderrTail.join(" | ")})` : "";
  }
}

function createTransport(settings: McpServerSettings): Transport {
  if (settings.kind === "stdio") {
    return new StdioClientTransport({
      command: settings.command,
      args: [...settings.args],
      env: { ...settings.env },
      ...(settings.cwd ? { cwd: settings.cwd } : {}),
      stderr: "pipe",
    });
  }
  const requestInit = { headers: { ...settings.headers } };
  return settings.transport === "sse"
    ? new SSEClientTransport(new URL(settings.url), {
        requestInit,
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...settings.headers, ...(init?.headers as Record<string, string>) } }) },
      })
    : new StreamableHTTPClientTransport(new URL(settings.url), { requestInit });
}

import { describe, expect, it } from "vitest";
import { mcpAgentTool, mcpToolResult } from "../../../src/agents/mcp/mcp-agent-tool.js";
import { runToolCall } from "../../../src/agents/runner/run-tool-call.js";
import { mcpServerSettings } from "../../../src/agents/mcp/mcp-settings.js";
import { mcpServerPrefix, mcpToolName, passesToolFilter } from "../../../src/agents/mcp/mcp-tool-names.js";
import { validateConfig } from "../../../src/config/index.js";
import type { ToolContext } from "../../../src/agents/types.js";

describe("MCP tool names", () => {
  it("prefixes are lower case and provider-safe, start with a letter and stay short", () => {
    expect(mcpServerPrefix("Outlook Graph")).toBe("outlook-graph");
    expect(mcpServerPrefix("42docs")).toBe("mcp-42docs");
    expect(mcpServerPrefix("a.very.long.server.name.that.goes.on")).toBe("a-very-long-server-name");
  });

  it("a tool name is <prefix>__<tool>, cut to 64 and made unique", () => {
    expect(mcpToolName("docs", "read.page", new Set())).toBe("docs__read-page");
    const long = mcpToolName("docs", "x".repeat(80), new Set());
    expect(long).toHaveLength(64);
    expect(mcpToolName("docs", "x".repeat(80), new Set([long]))).toBe(`${long.slice(0, 62)}-2`);
  });

  it("toolFilter: include keeps only matches, exclude hides them, * globs", () => {
    const filter = { include: ["search*", "read_page"], exclude: ["search_admin"] };
    expect(["search", "search_docs", "search_admin", "read_page", "delete"].filter((name) => passesToolFilter(name, filter))).toEqual(["search", "search_docs", "read_page"]);
    expect(passesToolFilter("anything", undefined)).toBe(true);
  });

  it("two servers whose names make one prefix get -2, and a disabled server is left out", () => {
    const config = validateConfig({ mcp: { servers: { Docs: { command: "a" }, docs: { url: "https://x/mcp" }, off: { command: "b", enabled: false } } } }, {}).config;
    expect(mcpServerSettings(config).map((s) => [s.name, s.prefix, s.kind])).toEqual([
      ["Docs", "docs", "stdio"],
      ["docs", "docs-2", "http"],
    ]);
  });

  it("the config loader refuses a server with both or neither of command and url, and keys of the other kind", () => {
    expect(() => validateConfig({ mcp: { servers: { x: { command: "a", url: "https://b" } } } }, {})).toThrow(/mcp\.servers\.x: give either command/);
    expect(() => validateConfig({ mcp: { servers: { x: { args: ["a"] } } } }, {})).toThrow(/give either command/);
    expect(() => validateConfig({ mcp: { servers: { x: { url: "https://b", env: { A: "1" } } } } }, {})).toThrow(/mcp\.servers\.x\.env: env is for a server started with command/);
    expect(() => validateConfig({ mcp: { servers: { x: { command: "a", transport: "sse" } } } }, {})).toThrow(/transport is for a server reached by url/);
  });
});

describe("an MCP tool as an agent tool", () => {
  const ctx = { agentId: "main", workspaceDir: "/tmp", senderIsOwner: true, services: {} } as ToolContext;
  const info = {
    name: "add",
    description: "Add two numbers.",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  };

  it("is owner only, says its server, sends the schema as it is and checks arguments before calling", async () => {
    const calls: unknown[] = [];
    const tool = mcpAgentTool("math__add", "math", info, async (name, args) => {
      calls.push([name, args]);
      return { content: [{ type: "text", text: "3" }] };
    });
    expect(tool.ownerOnly).toBe(true);
    expect(tool.description).toBe('Add two numbers. (MCP server "math")');
    expect(JSON.parse(JSON.stringify(tool.parameters))).toEqual(info.inputSchema);
    // Through the loop's tool-call step, which asks the tool's own check before executing it.
    const call = { type: "toolCall" as const, id: "c1", name: "math__add", arguments: { a: "1" } };
    const { result: bad } = await runToolCall(call, new Map([[tool.name, tool]]), [], ctx, new AbortController().signal, () => {});
    expect(bad.isError).toBe(true);
    expect(JSON.parse((bad.content[0] as { text: string }).text).error).toBe("INVALID_ARGUMENT");
    expect(calls).toEqual([]);
    const good = await tool.execute({ a: 1, b: 2 } as never, ctx, new AbortController().signal);
    expect(good).toEqual({ content: [{ type: "text", text: "3" }] });
    expect(calls).toEqual([["add", { a: 1, b: 2 }]]);
  });

  it("results: text and images as they are, resources and links as text, structured content when alone, errors kept", () => {
    const converted = mcpToolResult({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AA==", mimeType: "application/octet-stream" } },
        { type: "resource_link", uri: "https://x/doc", name: "doc" },
        { type: "audio", data: "AA==", mimeType: "audio/wav" },
      ],
      isError: true,
    });
    expect(converted.isError).toBe(true);
    expect(converted.content).toEqual([
      { type: "text", text: "hello" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: "[resource file:///a.txt]\ninside" },
      { type: "text", text: "[resource file:///b.bin: application/octet-stream, not shown]" },
      { type: "text", text: "[link doc: https://x/doc]" },
      { type: "text", text: "[audio content (audio/wav), not shown]" },
    ]);
    expect(mcpToolResult({ content: [], structuredContent: { sum: 3 } }).content).toEqual([{ type: "text", text: '{"sum":3}' }]);
    expect(mcpToolResult({ content: [] }).content).toEqual([{ type: "text", text: "(no output)" }]);
  });
});

import { describe, expect, it } from "vitest";
import { parseMcpServerDefinition, redactMcpServer, redactMcpServers } from "../../../src/agents/mcp/mcp-server-definition.js";

describe("parseMcpServerDefinition", () => {
  it("reads OpenClaw's type as transport and refuses what is not one JSON object", () => {
    expect(parseMcpServerDefinition('{"type":"http","url":"https://x.example/mcp"}')).toEqual({ server: { url: "https://x.example/mcp", transport: "streamable-http" } });
    expect(parseMcpServerDefinition('{"type":"sse","url":"https://x.example/sse"}')).toEqual({ server: { url: "https://x.example/sse", transport: "sse" } });
    expect(parseMcpServerDefinition('{"type":"http","transport":"sse","url":"u"}')).toEqual({ server: { url: "u", transport: "sse" } });
    expect(parseMcpServerDefinition("[1]")).toEqual({ problem: expect.stringContaining("must be one JSON object") });
    expect(parseMcpServerDefinition("{oops")).toEqual({ problem: expect.stringContaining("is not JSON") });
  });
});

describe("redactMcpServer", () => {
  it("hides every env and header value, credential flags' values and credential-shaped arguments; keeps the rest", () => {
    const shown = redactMcpServer({
      command: "npx",
      args: ["-y", "srv", "--token", "plain-token", "--api-key=abc", "--port", "8080", "sk-abcdefghijklmnop", "ghp_abcdefghijklmnopqrstuvwx", "--password", "--verbose"],
      env: { GITHUB_TOKEN: "g", LOG_LEVEL: "debug" },
    });
    expect(shown.args).toEqual([
      "-y",
      "srv",
      "--token",
      "__OPENCLAW_REDACTED__",
      "--api-key=__OPENCLAW_REDACTED__",
      "--port",
      "8080",
      "__OPENCLAW_REDACTED__",
      "__OPENCLAW_REDACTED__",
      "--password",
      "--verbose",
    ]);
    expect(shown.env).toEqual({ GITHUB_TOKEN: "__OPENCLAW_REDACTED__", LOG_LEVEL: "__OPENCLAW_REDACTED__" });
    const servers = redactMcpServers({ docs: { url: "https://x.example/mcp", headers: { Authorization: "Bearer abc", "X-Org": "acme" } } });
    expect(servers.docs!.headers).toEqual({ Authorization: "__OPENCLAW_REDACTED__", "X-Org": "__OPENCLAW_REDACTED__" });
  });
});

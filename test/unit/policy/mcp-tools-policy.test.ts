import { describe, expect, it } from "vitest";
import { resolveEffectiveTools } from "../../../src/agents/policy/index.js";

const AVAILABLE = ["read", "exec", "message", "session_status", "sessions_list", "docs__search", "docs__read_page", "github__create_issue"];
const MCP = ["docs__search", "docs__read_page", "github__create_issue"];

function allowed(config: unknown, overrides: { sandboxed?: boolean } = {}): string[] {
  return resolveEffectiveTools({ config, agentId: "main", senderIsOwner: true, ownerOnlyTools: [], available: AVAILABLE, ...overrides }).allowed;
}

describe("MCP servers' tools in the tool policy", () => {
  it("the coding and messaging profiles keep them, minimal does not", () => {
    expect(allowed({ tools: { profile: "coding" } })).toEqual(expect.arrayContaining(MCP));
    expect(allowed({ tools: { profile: "messaging" } })).toEqual(expect.arrayContaining(MCP));
    expect(allowed({ tools: { profile: "minimal" } })).toEqual(["session_status"]);
  });

  it("bundle-mcp names them all, <server>__* one server's, and no built-in tool", () => {
    expect(allowed({ tools: { deny: ["bundle-mcp"] } })).toEqual(["read", "exec", "message", "session_status", "sessions_list"]);
    expect(allowed({ tools: { deny: ["docs__*"] } })).toEqual(["read", "exec", "message", "session_status", "sessions_list", "github__create_issue"]);
    expect(allowed({ tools: { allow: ["bundle-mcp"] } })).toEqual(MCP);
    const explained = resolveEffectiveTools({
      config: { tools: { allow: ["bundle-mcp", "read"] } },
      agentId: "main",
      senderIsOwner: true,
      ownerOnlyTools: [],
      available: AVAILABLE,
    });
    expect(explained.warnings).toEqual([]);
  });

  it("a sandboxed run gets them only when the sandbox layer lists them, as in OpenClaw", () => {
    expect(allowed({}, { sandboxed: true }).filter((name) => name.includes("__"))).toEqual([]);
    expect(allowed({ tools: { sandbox: { tools: { allow: ["exec", "bundle-mcp"] } } } }, { sandboxed: true })).toEqual(["exec", ...MCP]);
  });
});

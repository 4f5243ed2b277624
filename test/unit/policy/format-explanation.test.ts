import { describe, expect, it } from "vitest";
import { explainToolPolicy, formatToolPolicyExplanation } from "../../../src/agents/policy/index.js";
import { resolve } from "./fixtures.js";

const config = {
  tools: { profile: "coding", deny: ["group:web"], byProvider: { openai: { deny: ["image"] } } },
  agents: { entries: { main: { tools: { deny: ["cron"] } } } },
};

describe("explainToolPolicy", () => {
  it("lists every available tool with its verdict", () => {
    const verdicts = explainToolPolicy(resolve(config, { provider: "openai", available: ["read", "web_search", "cron", "image"] }));
    expect(verdicts).toEqual([
      { tool: "read", allowed: true },
      { tool: "web_search", allowed: false, removedBy: "tools.deny", reason: 'matches deny entry "group:web"', stage: "global" },
      { tool: "cron", allowed: false, removedBy: "agents.entries.main.tools.deny", reason: 'matches deny entry "cron"', stage: "agent" },
      { tool: "image", allowed: false, removedBy: "tools.byProvider.openai.deny", reason: 'matches deny entry "image"', stage: "provider" },
    ]);
  });
});

describe("formatToolPolicyExplanation", () => {
  const result = resolve(config, { provider: "openai", modelId: "gpt-5", channel: "telegram", senderIsOwner: false });

  it("renders the request, the allowed tools, a layer table and one line per removal", () => {
    const text = formatToolPolicyExplanation(result);
    expect(text.split("\n")[0]).toBe('Tool policy for agent "main" · model openai/gpt-5 · channel telegram · non-owner sender · not sandboxed');
    expect(text).toContain(
      "\nAllowed (11): read, write, edit, apply_patch, memory_search, memory_get, sessions_list, sessions_history, sessions_send, sessions_spawn, session_status\n",
    );
    expect(text).toMatch(/^ {2}#\s+layer\s+source\s+tools\s+rule$/m);
    expect(text).toMatch(/^ {2}1\s+profile\s+tools\.profile\s+23 → 17\s+profile "coding": group:fs/m);
    expect(text).toMatch(/^ {2}3\s+agent\s+agents\.entries\.main\.tools\s+15 → 14\s+deny: cron$/m);
    expect(text).toMatch(/^ {2}4\s+owner\s+owner-only tools\s+14 → 12\s+sender is not the owner/m);
    expect(text).toMatch(/^ {2}7\s+sandbox\s+tools\.sandbox\.tools\s+-\s+not sandboxed$/m);
    expect(text).toMatch(/^ {2}exec\s+— removed by owner-only tools \(only the owner may use it; this sender is not the owner\)$/m);
    expect(text).toMatch(/^ {2}browser\s+— removed by tools\.profile \(not in profile "coding"\)$/m);
    expect(text).not.toMatch(/ +$/m);
  });

  it("says so when no tool is left, and lists warnings", () => {
    const text = formatToolPolicyExplanation(resolve({ tools: { allow: ["group:nope"] } }));
    expect(text).toContain("Allowed (0): (none)");
    expect(text).toContain("fails before calling the model");
    expect(text).toContain('Warnings:\n  - tools.allow: "group:nope" is not a known tool group; it matches nothing');
  });

  it("--json gives the same facts as data", () => {
    const json = JSON.parse(formatToolPolicyExplanation(result, { json: true }));
    expect(json.context).toEqual({ agentId: "main", provider: "openai", modelId: "gpt-5", channel: "telegram", senderIsOwner: false, sandboxed: false });
    expect(json.allowed).toEqual(result.allowed);
    expect(json.tools).toHaveLength(23);
    expect(json.steps).toHaveLength(7);
    expect(json.warnings).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { ToolPolicyInput } from "../../../src/agents/policy/index.js";
import { AVAILABLE, resolve, without } from "./fixtures.js";

interface Case {
  name: string;
  config: unknown;
  input?: Partial<ToolPolicyInput>;
  allowed: string[];
}

/** The coding profile: everything but messaging, the gateway, UI, nodes and MCP tools. */
const CODING = without("message", "gateway", "browser", "canvas", "nodes", "mcp_github_search");

const agent = (tools: unknown) => ({ agents: { list: [{ id: "main", tools }] } });

const cases: Case[] = [
  { name: "no config: every tool", config: {}, allowed: AVAILABLE },
  { name: "config not an object: every tool", config: undefined, allowed: AVAILABLE },

  // (1) profile
  { name: "profile minimal", config: { tools: { profile: "minimal" } }, allowed: ["session_status"] },
  { name: "profile coding", config: { tools: { profile: "coding" } }, allowed: CODING },
  {
    name: "profile messaging",
    config: { tools: { profile: "messaging" } },
    allowed: ["sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "session_status", "message"],
  },
  { name: "profile full restricts nothing", config: { tools: { profile: "full" } }, allowed: AVAILABLE },
  {
    name: "alsoAllow adds to the profile's list",
    config: { tools: { profile: "coding", alsoAllow: ["message"] } },
    allowed: AVAILABLE.filter((t) => CODING.includes(t) || t === "message"),
  },
  {
    name: "an agent's alsoAllow replaces the global one",
    config: { tools: { profile: "coding", alsoAllow: ["message"] }, ...agent({ alsoAllow: ["gateway"] }) },
    allowed: AVAILABLE.filter((t) => CODING.includes(t) || t === "gateway"),
  },
  { name: "alsoAllow without a profile narrows nothing", config: { tools: { alsoAllow: ["message"] } }, allowed: AVAILABLE },
  {
    name: "allow beside alsoAllow still narrows what the profile and alsoAllow give",
    config: { tools: { profile: "coding", alsoAllow: ["message"], allow: ["read", "message", "gateway"] } },
    allowed: ["read", "message"],
  },
  { name: "profile name is case-insensitive", config: { tools: { profile: "Minimal" } }, allowed: ["session_status"] },
  {
    name: "the agent's profile replaces the global one",
    config: { tools: { profile: "minimal" }, ...agent({ profile: "coding" }) },
    allowed: CODING,
  },

  // (2) global allow / deny
  { name: "global allow", config: { tools: { allow: ["read", "exec"] } }, allowed: ["read", "exec"] },
  { name: "global deny", config: { tools: { deny: ["exec", "browser"] } }, allowed: without("exec", "browser") },
  { name: "deny wins over allow in the same scope", config: { tools: { allow: ["read", "exec"], deny: ["exec"] } }, allowed: ["read"] },
  { name: "an empty allow list restricts nothing", config: { tools: { allow: [], deny: ["exec"] } }, allowed: without("exec") },
  { name: "groups in a deny list", config: { tools: { deny: ["group:runtime", "group:automation"] } }, allowed: without("exec", "process", "cron", "gateway") },
  {
    name: "wildcards",
    config: { tools: { allow: ["memory_*", "sessions_*"] } },
    allowed: ["memory_search", "memory_get", "sessions_list", "sessions_history", "sessions_send", "sessions_spawn"],
  },
  { name: "case-insensitive names and groups", config: { tools: { allow: ["READ", "Group:Runtime"] } }, allowed: ["read", "exec", "process"] },
  { name: "bash names exec", config: { tools: { deny: ["bash"] } }, allowed: without("exec") },
  { name: "allowing write allows apply_patch", config: { tools: { allow: ["write"] } }, allowed: ["write", "apply_patch"] },
  { name: "denying write does not deny apply_patch", config: { tools: { allow: ["group:fs"], deny: ["write"] } }, allowed: ["read", "edit", "apply_patch"] },
  { name: "group:plugins", config: { tools: { allow: ["group:plugins"] } }, allowed: ["mcp_github_search"] },
  { name: "a malformed list is ignored, not guessed at", config: { tools: { allow: "read" } }, allowed: AVAILABLE },

  // (3) per agent
  { name: "agents.list[].tools.deny", config: agent({ deny: ["exec"] }), allowed: without("exec") },
  { name: "agents.entries.<id>.tools.allow", config: { agents: { entries: { main: { tools: { allow: ["read"] } } } } }, allowed: ["read"] },
  { name: "another agent's tools do not apply", config: { agents: { list: [{ id: "other", tools: { deny: ["exec"] } }] } }, allowed: AVAILABLE },
  {
    name: "narrowing only: an agent allow list cannot re-add what the global layer removed",
    config: { tools: { allow: ["read"] }, ...agent({ allow: ["read", "exec"] }) },
    allowed: ["read"],
  },
  {
    name: "narrowing only: an agent allow list cannot re-add what the profile removed",
    config: { tools: { profile: "minimal" }, ...agent({ allow: ["group:fs", "session_status"] }) },
    allowed: ["session_status"],
  },

  // (4) owner-only
  { name: "owner keeps owner-only tools", config: {}, input: { senderIsOwner: true }, allowed: AVAILABLE },
  { name: "non-owner loses exec, process, gateway, cron, browser", config: {}, input: { senderIsOwner: false }, allowed: without("exec", "process", "gateway", "cron", "browser") },
  {
    name: "non-owner also loses registered owner-only tools",
    config: {},
    input: { senderIsOwner: false, ownerOnlyTools: ["nodes"] },
    allowed: without("exec", "process", "gateway", "cron", "browser", "nodes"),
  },
  {
    name: "a non-owner whose run replies through the message tool keeps it, and loses the rest",
    config: {},
    input: { senderIsOwner: false, ownerOnlyTools: ["message"], repliesThroughMessageTool: true },
    allowed: without("exec", "process", "gateway", "cron", "browser"),
  },
  {
    name: "a non-owner loses the registered owner-only message tool otherwise",
    config: {},
    input: { senderIsOwner: false, ownerOnlyTools: ["message"] },
    allowed: without("exec", "process", "gateway", "cron", "browser", "message"),
  },
  {
    name: "an allow list does not give a non-owner an owner-only tool",
    config: { tools: { allow: ["read", "exec"] } },
    input: { senderIsOwner: false },
    allowed: ["read"],
  },

  // chat and sender rules (chat messages)
  {
    name: "a chat rule's allow with alsoAllow narrows, its deny removes (allowing write keeps apply_patch, as everywhere)",
    config: {},
    input: { chatTools: { source: "channels.telegram.groups.-100.tools", allow: ["read", "write"], alsoAllow: ["exec"], deny: ["write"] } },
    allowed: ["read", "apply_patch", "exec"],
  },
  { name: "a rule with only alsoAllow narrows nothing", config: {}, input: { chatTools: { source: "g", alsoAllow: ["exec"] } }, allowed: AVAILABLE },
  {
    name: "a sender rule narrows after the chat's",
    config: {},
    input: { chatTools: { source: "g", deny: ["exec"] }, senderTools: { source: "s", deny: ["browser"] } },
    allowed: without("exec", "browser"),
  },

  // (5) channel
  { name: "byChannel applies to its channel", config: { tools: { byChannel: { telegram: { deny: ["browser"] } } } }, input: { channel: "Telegram" }, allowed: without("browser") },
  { name: "byChannel ignores other channels", config: { tools: { byChannel: { telegram: { deny: ["browser"] } } } }, input: { channel: "discord" }, allowed: AVAILABLE },
  {
    name: "byChannel allow",
    config: { tools: { byChannel: { voice: { allow: ["message", "session_status"] } } } },
    input: { channel: "voice" },
    allowed: ["session_status", "message"],
  },

  // (6) provider, then tools.exec.applyPatch
  { name: "applyPatch.enabled false removes apply_patch", config: { tools: { exec: { applyPatch: { enabled: false } } } }, allowed: without("apply_patch") },
  {
    name: "applyPatch.allowModels keeps apply_patch for a listed model id",
    config: { tools: { exec: { applyPatch: { allowModels: ["gpt-5.4"] } } } },
    input: { provider: "openai", modelId: "gpt-5.4" },
    allowed: AVAILABLE,
  },
  {
    name: "applyPatch.allowModels keeps apply_patch for a listed provider/model ref",
    config: { tools: { exec: { applyPatch: { allowModels: ["openai/gpt-5.4"] } } } },
    input: { provider: "openai", modelId: "gpt-5.4" },
    allowed: AVAILABLE,
  },
  {
    name: "applyPatch.allowModels removes apply_patch for another model",
    config: { tools: { exec: { applyPatch: { allowModels: ["openai/gpt-5.4"] } } } },
    input: { provider: "anthropic", modelId: "claude-sonnet-4-5" },
    allowed: without("apply_patch"),
  },
  {
    name: "byProvider by provider",
    config: { tools: { byProvider: { openai: { deny: ["exec"] } } } },
    input: { provider: "openai", modelId: "gpt-4o" },
    allowed: without("exec"),
  },
  {
    name: "byProvider: an exact provider/model key wins over the provider key",
    config: { tools: { byProvider: { openai: { deny: ["exec"] }, "openai/gpt-5": { deny: ["browser"] } } } },
    input: { provider: "openai", modelId: "gpt-5" },
    allowed: without("browser"),
  },
  {
    name: "byProvider: other models of the provider get the provider key",
    config: { tools: { byProvider: { openai: { deny: ["exec"] }, "openai/gpt-5": { deny: ["browser"] } } } },
    input: { provider: "openai", modelId: "gpt-4o" },
    allowed: without("exec"),
  },
  {
    name: "byProvider keys are case-insensitive; a provider/model model id is split",
    config: { tools: { byProvider: { "OpenAI/GPT-5": { deny: ["browser"] } } } },
    input: { modelId: "openai/gpt-5" },
    allowed: without("browser"),
  },
  {
    name: "byProvider profile",
    config: { tools: { profile: "coding", byProvider: { "google-antigravity": { profile: "minimal" } } } },
    input: { provider: "google-antigravity" },
    allowed: ["session_status"],
  },
  {
    name: "byProvider allow cannot re-add",
    config: { tools: { deny: ["exec"], byProvider: { openai: { allow: ["read", "exec"] } } } },
    input: { provider: "openai" },
    allowed: ["read"],
  },
  {
    name: "the agent's own byProvider",
    config: agent({ byProvider: { anthropic: { allow: ["group:fs"] } } }),
    input: { provider: "anthropic", modelId: "claude-sonnet-4-5" },
    allowed: ["read", "write", "edit", "apply_patch"],
  },
  { name: "byProvider without a provider does nothing", config: { tools: { byProvider: { openai: { deny: ["exec"] } } } }, allowed: AVAILABLE },

  // (7) sandbox
  { name: "not sandboxed: sandbox lists ignored", config: { tools: { sandbox: { tools: { deny: ["exec"] } } } }, allowed: AVAILABLE },
  {
    name: "sandboxed with no config: built-in sandbox lists",
    config: {},
    input: { sandboxed: true },
    allowed: ["read", "write", "edit", "apply_patch", "exec", "process", "sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "session_status", "image"],
  },
  {
    name: "sandboxed: tools.sandbox.tools replaces each default list",
    config: { tools: { sandbox: { tools: { allow: ["*"], deny: ["exec"] } } } },
    input: { sandboxed: true },
    allowed: without("exec"),
  },
  {
    name: "sandboxed: the agent's sandbox list replaces the global one",
    config: { tools: { sandbox: { tools: { allow: ["*"], deny: ["exec"] } } }, ...agent({ sandbox: { tools: { deny: ["browser"] } } }) },
    input: { sandboxed: true },
    allowed: without("browser"),
  },
];

describe("resolveEffectiveTools", () => {
  it.each(cases)("$name", ({ config, input, allowed }) => {
    expect(resolve(config, input).allowed).toEqual(allowed);
  });

  it("applies the layers in order and records each", () => {
    const result = resolve({ tools: { profile: "coding" } }, { provider: "openai", channel: "telegram", senderIsOwner: false, sandboxed: true });
    expect(result.steps.map((s) => s.stage)).toEqual(["profile", "global", "agent", "owner", "channel", "provider", "sandbox"]);
    for (let i = 1; i < result.steps.length; i += 1) {
      expect(result.steps[i]?.before).toEqual(result.steps[i - 1]?.after);
    }
    expect(result.steps.at(-1)?.after).toEqual(result.allowed);
  });

  it("no layer ever adds a tool", () => {
    const result = resolve(
      { tools: { profile: "minimal", allow: ["*"], byProvider: { openai: { allow: ["*"] } }, sandbox: { tools: { allow: ["*"] } } }, ...agent({ allow: ["*"] }) },
      { provider: "openai", sandboxed: true },
    );
    for (const step of result.steps) for (const tool of step.after) expect(step.before).toContain(tool);
    expect(result.allowed).toEqual(["session_status"]);
  });

  it("names the layer and the entry that removed each tool", () => {
    const result = resolve({ tools: { allow: ["read", "write", "exec", "browser"], deny: ["group:ui"] }, ...agent({ deny: ["exec"] }) }, { provider: "openai", modelId: "gpt-5" });
    const byTool = Object.fromEntries(result.removed.map((r) => [r.tool, r]));
    expect(byTool.browser).toMatchObject({ layer: "tools.deny", reason: 'matches deny entry "group:ui"', stage: "global" });
    expect(byTool.edit).toMatchObject({ layer: "tools.allow", reason: "not in the allow list", stage: "global" });
    expect(byTool.exec).toMatchObject({ layer: "agents.list[main].tools.deny", reason: 'matches deny entry "exec"', stage: "agent" });
    expect(result.removed.map((r) => r.tool).sort()).toEqual(without("read", "write", "apply_patch").sort());
  });

  it("blames the profile, the owner rule and the sandbox defaults by name", () => {
    const result = resolve({ tools: { profile: "messaging" } }, { senderIsOwner: false, sandboxed: true, available: ["read", "exec", "message", "sessions_list", "browser"] });
    const byTool = Object.fromEntries(result.removed.map((r) => [r.tool, r]));
    expect(byTool.read).toMatchObject({ layer: "tools.profile", reason: 'not in profile "messaging"' });
    expect(result.allowed).toEqual(["sessions_list"]);
    expect(byTool.message).toMatchObject({ stage: "sandbox", layer: "sandbox default allow list" });

    const owner = resolve({}, { senderIsOwner: false });
    expect(owner.removed.find((r) => r.tool === "gateway")).toMatchObject({ layer: "owner-only tools", stage: "owner" });
  });

  it("records which byProvider key matched", () => {
    const config = { tools: { byProvider: { openai: { deny: ["exec"] }, "openai/gpt-5": { deny: ["browser"] } } } };
    expect(resolve(config, { provider: "openai", modelId: "gpt-5" }).steps.find((s) => s.stage === "provider")?.source).toBe('tools.byProvider["openai/gpt-5"]');
    expect(resolve(config, { provider: "openai", modelId: "o3" }).steps.find((s) => s.stage === "provider")?.source).toBe("tools.byProvider.openai");
  });

  it("warns about config that matches nothing", () => {
    const result = resolve({ tools: { profile: "tiny", allow: ["group:filesystem", "reed", "read", "mcp_github_search", "memory_*"] } });
    expect(result.warnings).toEqual([
      'tools.profile: unknown profile "tiny" ignored (expected minimal, coding, messaging or full)',
      'tools.allow: "group:filesystem" is not a known tool group; it matches nothing',
      'tools.allow: "reed" is not the name of any known or available tool',
    ]);
    expect(result.allowed).toEqual(["memory_search", "memory_get", "read", "mcp_github_search"].sort((a, b) => AVAILABLE.indexOf(a) - AVAILABLE.indexOf(b)));
  });

  it("keeps the available order and drops duplicate registrations", () => {
    const result = resolve({}, { available: ["write", "read", "write"] });
    expect(result.allowed).toEqual(["write", "read"]);
  });

  it("an allow list can leave no tool at all", () => {
    expect(resolve({ tools: { allow: ["nodes"] } }, { senderIsOwner: true, available: ["read"] }).allowed).toEqual([]);
  });
});

describe("tools.exec.applyPatch in the explanation", () => {
  it("names the key that removed apply_patch and why", () => {
    const result = resolve({ tools: { exec: { applyPatch: { allowModels: ["gpt-5.4"] } } } }, { provider: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(result.removed.find((r) => r.tool === "apply_patch")).toMatchObject({
      layer: "tools.exec.applyPatch.allowModels",
      reason: "the turn's model (anthropic/claude-sonnet-4-5) is not in tools.exec.applyPatch.allowModels",
    });
  });
});

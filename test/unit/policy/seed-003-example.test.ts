import { describe, expect, it } from "vitest";
import { formatToolPolicyExplanation, resolveEffectiveTools } from "../../../src/agents/policy/index.js";
import { AVAILABLE } from "./fixtures.js";

/**
 * Seed 003 §2.3's worked example. The seed writes the config with `tools` twice (once for
 * allow/deny, once for byProvider); a JSON parser would keep only the second, so the example
 * only makes sense with the two merged, as here. The provider key is the seed's,
 * "google-gemini-2-0-flash": it has no "/", so it is a provider key and matches a request
 * whose provider is that id.
 */
const SEED_CONFIG = {
  tools: {
    allow: ["read", "write", "exec"],
    deny: ["gateway"],
    byProvider: {
      "google-gemini-2-0-flash": { deny: ["browser"] },
    },
  },
  agents: {
    list: [{ id: "restricted", tools: { deny: ["exec"] } }],
  },
};

// What a Gemini run registers: every built-in except apply_patch, which OpenClaw offers only to
// OpenAI models (tools.exec.applyPatch). That matters here: allowing `write` also allows
// apply_patch wherever it is registered.
const GEMINI_TOOLS = AVAILABLE.filter((tool) => tool !== "apply_patch");

const request = {
  config: SEED_CONFIG,
  agentId: "restricted",
  provider: "google-gemini-2-0-flash",
  senderIsOwner: true,
  ownerOnlyTools: [],
  available: GEMINI_TOOLS,
};

describe("seed 003 worked example: agent `restricted` on google-gemini-2-0-flash", () => {
  const result = resolveEffectiveTools(request);

  it("ends with only read and write", () => {
    expect(result.allowed).toEqual(["read", "write"]);
  });

  it("exec is removed by the agent's deny (the global allow list allowed it)", () => {
    expect(result.removed.find((r) => r.tool === "exec")).toEqual({
      tool: "exec",
      stage: "agent",
      layer: "agents.list[restricted].tools.deny",
      reason: 'matches deny entry "exec"',
    });
  });

  it("gateway is removed by the global deny, everything else outside the allow list by tools.allow", () => {
    expect(result.removed.find((r) => r.tool === "gateway")).toMatchObject({ layer: "tools.deny" });
    expect(result.removed.find((r) => r.tool === "browser")).toMatchObject({ layer: "tools.allow", reason: "not in the allow list" });
  });

  it("the provider key matches; its browser deny has nothing left to remove", () => {
    const provider = result.steps.find((s) => s.stage === "provider");
    expect(provider).toMatchObject({ applied: true, source: "tools.byProvider.google-gemini-2-0-flash", detail: "deny: browser" });
    expect(provider?.before).toEqual(["read", "write"]);
    expect(provider?.after).toEqual(["read", "write"]);
  });

  it("the provider layer does remove browser when the global allow list lets it through", () => {
    const config = { ...SEED_CONFIG, tools: { ...SEED_CONFIG.tools, allow: ["read", "write", "exec", "browser"] } };
    const widened = resolveEffectiveTools({ ...request, config });
    expect(widened.allowed).toEqual(["read", "write"]);
    expect(widened.removed.find((r) => r.tool === "browser")).toMatchObject({
      stage: "provider",
      layer: "tools.byProvider.google-gemini-2-0-flash.deny",
    });
  });

  it("on a model that has apply_patch, allowing write lets it through too", () => {
    const openai = resolveEffectiveTools({ ...request, provider: "openai", modelId: "gpt-5", available: AVAILABLE });
    expect(openai.allowed).toEqual(["read", "write", "apply_patch"]);
  });

  it("the explanation names the layer that removed exec", () => {
    expect(formatToolPolicyExplanation(result)).toMatch(/^ {2}exec\s+— removed by agents\.list\[restricted\]\.tools\.deny \(matches deny entry "exec"\)$/m);
  });
});

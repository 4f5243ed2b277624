import { describe, expect, it } from "vitest";
import { defaultAgentId, listAgentConfigs, resolveAgentConfig } from "../../../src/agents/agent-config.js";

describe("the configured agents", () => {
  it("are listed once per config object, frozen, with both spellings merged and the default marked", () => {
    const config = { agents: { list: [{ id: "Ops" }], entries: { Home: { default: true } } } };
    const agents = listAgentConfigs(config);
    expect(agents.map((a) => [a.id, a.isDefault])).toEqual([
      ["ops", false],
      ["home", true],
    ]);
    expect(listAgentConfigs(config)).toBe(agents);
    expect(Object.isFrozen(agents) && agents.every((a) => Object.isFrozen(a))).toBe(true);
    expect(defaultAgentId(config)).toBe("home");
    expect(resolveAgentConfig(config, "OPS")?.id).toBe("ops");
  });

  it("are worked out afresh for a new config object (a reload)", () => {
    expect(listAgentConfigs({ agents: { entries: { a: {} } } }).map((a) => a.id)).toEqual(["a"]);
    expect(listAgentConfigs({ agents: { entries: { b: {} } } }).map((a) => a.id)).toEqual(["b"]);
    expect(listAgentConfigs({}).map((a) => [a.id, a.isDefault])).toEqual([["main", true]]);
  });
});

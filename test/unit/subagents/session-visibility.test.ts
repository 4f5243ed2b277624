import { describe, expect, it } from "vitest";
import { checkSessionVisible } from "../../../src/agents/agent-to-agent/session-visibility.js";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { OpenClawConfig } from "../../../src/config/index.js";

const config = (tools: Record<string, unknown> = {}) => applyDefaults({ tools } as never) as OpenClawConfig;
const spawned = new Set(["agent:main:peer>agent:main:subagent:x", "agent:main:peer>agent:worker:subagent:y"]);
const ctx = (tools?: Record<string, unknown>) => ({ config: config(tools), spawnedBy: (a: string, b: string) => spawned.has(`${a}>${b}`) });
const visible = (tools: Record<string, unknown> | undefined, caller: string, target: string) => checkSessionVisible(ctx(tools), caller, target)?.code ?? "visible";

describe("checkSessionVisible", () => {
  it("tree (default): the caller, what it spawned, and — for an agent's main session — every session of its agent", () => {
    expect(visible(undefined, "agent:main:peer", "agent:main:peer")).toBe("visible");
    expect(visible(undefined, "agent:main:peer", "agent:main:subagent:x")).toBe("visible");
    expect(visible(undefined, "agent:main:peer", "agent:main:other")).toBe("SESSION_NOT_VISIBLE");
    expect(visible(undefined, "agent:main:main", "agent:main:other")).toBe("visible");
    // Its own child of another agent counts as its tree.
    expect(visible(undefined, "agent:main:peer", "agent:worker:subagent:y")).toBe("visible");
  });

  it("self, agent and all", () => {
    expect(visible({ sessions: { visibility: "self" } }, "agent:main:main", "agent:main:other")).toBe("SESSION_NOT_VISIBLE");
    expect(visible({ sessions: { visibility: "agent" } }, "agent:main:peer", "agent:main:other")).toBe("visible");
    expect(visible({ sessions: { visibility: "agent" } }, "agent:main:main", "agent:worker:main")).toBe("SESSION_NOT_VISIBLE");
  });

  it("other agents' sessions need visibility all and tools.agentToAgent (enabled, and allow when set)", () => {
    expect(visible({ sessions: { visibility: "all" } }, "agent:main:main", "agent:worker:main")).toBe("SESSION_NOT_VISIBLE");
    expect(visible({ sessions: { visibility: "all" }, agentToAgent: { enabled: true } }, "agent:main:main", "agent:worker:main")).toBe("visible");
    expect(visible({ sessions: { visibility: "all" }, agentToAgent: { enabled: true, allow: ["main"] } }, "agent:main:main", "agent:worker:main")).toBe("SESSION_NOT_VISIBLE");
    expect(visible({ sessions: { visibility: "all" }, agentToAgent: { enabled: true, allow: ["main", "worker"] } }, "agent:main:main", "agent:worker:main")).toBe("visible");
  });

  it("a sub-agent never sees past its own tree, whatever the visibility", () => {
    expect(visible({ sessions: { visibility: "all" } }, "agent:main:subagent:x", "agent:main:main")).toBe("SESSION_NOT_VISIBLE");
  });
});

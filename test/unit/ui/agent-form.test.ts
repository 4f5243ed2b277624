import { describe, expect, it } from "vitest";
import { agentFormValueOf, createParams, EMPTY_AGENT_FORM, updateParams, type AgentRow } from "../../../ui/src/views/agent-form.js";

const ops: AgentRow = { id: "ops", name: "Ops", workspace: "/srv/ops", model: { primary: "fake/other-model" }, identity: { emoji: "🛠" } };

describe("the Control UI's agent form", () => {
  it("creates with the name and only the optional fields that were filled in", () => {
    expect(createParams({ ...EMPTY_AGENT_FORM, name: "  Ops " })).toEqual({ name: "Ops" });
    expect(createParams({ name: "Ops", workspace: " ~/ops ", model: "fake/fake-model", emoji: "🛠" })).toEqual({
      name: "Ops",
      workspace: "~/ops",
      model: "fake/fake-model",
      emoji: "🛠",
    });
  });

  it("updates only the fields that changed; the default model is sent as null", () => {
    const unchanged = agentFormValueOf(ops);
    expect(unchanged).toEqual({ name: "Ops", workspace: "/srv/ops", model: "fake/other-model", emoji: "🛠" });
    expect(updateParams(ops, unchanged)).toEqual({ agentId: "ops" });
    expect(updateParams(ops, { ...unchanged, name: "Operations", model: "" })).toEqual({ agentId: "ops", name: "Operations", model: null });
    expect(updateParams(ops, { ...unchanged, workspace: "/srv/ops2", emoji: "🚀" })).toEqual({ agentId: "ops", workspace: "/srv/ops2", emoji: "🚀" });
  });

  it("reads a model given as a plain string and treats a missing one as the default", () => {
    expect(agentFormValueOf({ id: "a", model: "fake/fake-model" }).model).toBe("fake/fake-model");
    expect(updateParams({ id: "a" }, { name: "", workspace: "", model: "fake/fake-model", emoji: "" })).toEqual({ agentId: "a", model: "fake/fake-model" });
  });
});

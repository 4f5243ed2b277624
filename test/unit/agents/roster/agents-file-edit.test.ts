import { describe, expect, it } from "vitest";
import type { AgentsConfigFile } from "../../../../src/agents/roster/agents-file.js";
import { AgentsFileEdit } from "../../../../src/agents/roster/agents-file-edit.js";
import type { OpenClawConfig } from "../../../../src/config/index.js";

function fileWith(raw: Record<string, unknown>): AgentsConfigFile {
  return { stateDir: "/state", file: "/state/openclaw.json", config: raw as unknown as OpenClawConfig, raw, baseHash: "h" };
}

describe("AgentsFileEdit.setFields", () => {
  it("an agent under agents.entries gets a merge patch: null stays, so the writer removes the key", () => {
    const edit = new AgentsFileEdit(fileWith({ agents: { entries: { Ops: { model: "a/b", identity: { emoji: "x" } } } } }));
    edit.setFields("ops", { model: null, identity: { avatar: "y" } });
    expect(edit.toPatch().patch).toEqual({ agents: { entries: { Ops: { model: null, identity: { avatar: "y" } } } } });
  });

  it("an agent in the legacy agents.list is rewritten in place: a null removes the key, objects merge", () => {
    const edit = new AgentsFileEdit(fileWith({ agents: { list: [{ id: "main" }, { id: "ops", model: "a/b", identity: { emoji: "x" } }] } }));
    edit.setFields("ops", { model: null, identity: { avatar: "y" } });
    expect(edit.toPatch().patch).toEqual({ agents: { list: [{ id: "main" }, { id: "ops", identity: { emoji: "x", avatar: "y" } }] } });
  });

  it("an agent the file does not hold is refused with the fix", () => {
    const edit = new AgentsFileEdit(fileWith({ agents: { entries: { main: {} } } }));
    expect(() => edit.setFields("ghost", { name: "G" })).toThrow(/Agent "ghost" is not written in \/state\/openclaw.json \(an \$include defines it\?\)/);
  });
});

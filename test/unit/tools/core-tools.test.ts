import { Kind } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { createCoreTools, createToolServices, getProcessRegistry, ProcessRegistry } from "../../../src/agents/tools/index.js";

describe("createCoreTools", () => {
  it("returns the seven core tools in a stable order, owner-only where they run programs", () => {
    const tools = createCoreTools();
    expect(tools.map((tool) => tool.name)).toEqual(["read", "write", "edit", "apply_patch", "exec", "process", "web_fetch"]);
    expect(tools.filter((tool) => tool.ownerOnly).map((tool) => tool.name)).toEqual(["exec", "process"]);
  });

  it("keeps descriptions short and says when not to use each tool", () => {
    for (const tool of createCoreTools()) {
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(400);
      expect(tool.description, tool.name).toMatch(/Do not use/);
      expect(tool.parameters[Kind], tool.name).toBe("Object");
    }
  });

  it("createToolServices provides a process registry", () => {
    const services = createToolServices();
    expect(getProcessRegistry(services)).toBeInstanceOf(ProcessRegistry);
    expect(getProcessRegistry({})).toBeUndefined();
  });
});

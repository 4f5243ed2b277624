import { describe, expect, it } from "vitest";
import { RuntimeOverrides } from "../../../src/config/runtime-overrides.js";

describe("runtime overrides", () => {
  it("lays values over the file's content, creating objects on the way, without changing the content", () => {
    const file = { messages: { responsePrefix: "[file]" }, agents: { defaults: { model: "a/b" } } };
    const overrides = RuntimeOverrides.none.with("messages.responsePrefix", "[dbg]").with("channels.telegram.allowFrom", ["1", "2"]);
    expect(overrides.applyTo(file)).toEqual({
      messages: { responsePrefix: "[dbg]" },
      agents: { defaults: { model: "a/b" } },
      channels: { telegram: { allowFrom: ["1", "2"] } },
    });
    expect(file.messages.responsePrefix).toBe("[file]");
    expect(RuntimeOverrides.none.applyTo(file)).toBe(file);
  });

  it("is immutable: with and without give new sets, and the same path replaces its value", () => {
    const one = RuntimeOverrides.none.with("a.b", 1);
    const two = one.with("a.b", 2).with("a.c", 3);
    expect(one.list()).toEqual([{ path: "a.b", value: 1 }]);
    expect(two.list()).toEqual([
      { path: "a.b", value: 2 },
      { path: "a.c", value: 3 },
    ]);
    expect(two.without("a.b")?.list()).toEqual([{ path: "a.c", value: 3 }]);
    expect(two.without("a.zzz")).toBeUndefined();
    expect(two.size).toBe(2);
  });

  it("sets a list item by index, and refuses a path through a value that is not an object", () => {
    const file = { agents: { list: [{ id: "main" }, { id: "ops" }] }, messages: { responsePrefix: "x" } };
    expect(RuntimeOverrides.none.with("agents.list[1].name", "Ops").applyTo(file).agents).toEqual({ list: [{ id: "main" }, { id: "ops", name: "Ops" }] });
    expect(() => RuntimeOverrides.none.with("messages.responsePrefix.inner", 1).applyTo(file)).toThrow(
      "runtime override messages.responsePrefix.inner: messages.responsePrefix is not an object",
    );
    expect(() => RuntimeOverrides.none.with("agents.list[5].name", "x").applyTo(file)).toThrow("agents.list has no item 5");
  });

  it("names keys the schema does not know, with a suggestion", () => {
    expect(RuntimeOverrides.none.with("messages.responsePrefix", "x").unknownKeyIssues()).toEqual([]);
    const issues = RuntimeOverrides.none.with("mesages.responsePrefix", "x").unknownKeyIssues();
    expect(issues[0]).toMatchObject({ path: "mesages" });
    expect(issues[0]!.message).toContain('did you mean "messages"');
    expect(() => RuntimeOverrides.none.with("__proto__.polluted", 1)).toThrow('"__proto__" is not allowed');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

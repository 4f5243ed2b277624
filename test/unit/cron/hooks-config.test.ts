import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";
import { renderTemplate } from "../../../src/hooks/webhooks/template.js";
import { ReplayCache } from "../../../src/hooks/webhooks/replay-cache.js";

describe("hooks config and templates", () => {
  it("refuses hooks.enabled without a token, or with the gateway's own token", () => {
    expect(() => validateConfig({ hooks: { enabled: true } }, {})).toThrow(/hooks.token.*required when hooks.enabled is true/);
    expect(() => validateConfig({ gateway: { auth: { token: "abc" } }, hooks: { enabled: true, token: "abc" } }, {})).toThrow(/must differ from gateway.auth.token/);
    expect(() => validateConfig({ hooks: { enabled: true, token: "x", path: "/" } }, {})).toThrow(/hooks.path/);
    expect(validateConfig({ hooks: { enabled: true, token: "x" } }, {}).config.hooks).toMatchObject({ enabled: true });
  });

  it("fills templates from own fields only", () => {
    const body = { messages: [{ id: "m1", meta: { n: 2 } }], subject: "Hi" };
    expect(renderTemplate("{{subject}} {{messages[0].id}} {{messages[0].meta}} [{{missing.x}}]", body)).toBe('Hi m1 {"n":2} []');
    expect(renderTemplate("{{constructor}}{{__proto__}}", body)).toBe("");
  });

  it("forgets replays after their time and the oldest first when full", () => {
    let now = 0;
    const cache = new ReplayCache<number>(2, 1_000, () => now);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, 2, 3]);
    now = 2_000;
    expect(cache.get("b")).toBeUndefined();
  });
});

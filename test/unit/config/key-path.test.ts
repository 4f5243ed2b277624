import { describe, expect, it } from "vitest";
import { ConfigError, getConfigValue } from "../../../src/config/index.js";

describe("getConfigValue", () => {
  const config = {
    gateway: { port: 18789, auth: { token: null } },
    models: { providers: { fake: { apiKey: "sk", models: [{ id: "m1", cost: { input: 0 } }] } } },
    agents: { defaults: { models: { "openai/gpt-4.1": { alias: "gpt" } } } },
  };

  it("reads dot and bracket paths", () => {
    expect(getConfigValue(config, "gateway.port")).toEqual({ found: true, value: 18789 });
    expect(getConfigValue(config, "models.providers.fake.apiKey")).toEqual({ found: true, value: "sk" });
    expect(getConfigValue(config, "models.providers.fake.models[0].id")).toEqual({ found: true, value: "m1" });
    expect(getConfigValue(config, "models.providers.fake.models.0.cost.input")).toEqual({ found: true, value: 0 });
    expect(getConfigValue(config, 'agents.defaults.models["openai/gpt-4.1"].alias')).toEqual({ found: true, value: "gpt" });
    expect(getConfigValue(config, "agents.defaults.models['openai/gpt-4.1']")).toEqual({ found: true, value: { alias: "gpt" } });
  });

  it("tells a missing key from a present null and returns the root for an empty path", () => {
    expect(getConfigValue(config, "gateway.auth.token")).toEqual({ found: true, value: null });
    expect(getConfigValue(config, "gateway.auth.password")).toEqual({ found: false });
    expect(getConfigValue(config, "gateway.port.deeper")).toEqual({ found: false });
    expect(getConfigValue(config, "models.providers.fake.models[3]")).toEqual({ found: false });
    expect(getConfigValue(config, "toString")).toEqual({ found: false });
    expect(getConfigValue(config, "")).toEqual({ found: true, value: config });
  });

  it("rejects malformed paths with a ConfigError", () => {
    for (const bad of ["a..b", ".a", "a.", "a[", "a[x]", 'a["x"', "a[0]b"]) {
      expect(() => getConfigValue(config, bad), bad).toThrow(ConfigError);
    }
  });
});

import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";

describe("${VAR} substitution", () => {
  it("replaces variables in every string value, including inside arrays and records", () => {
    const env = { GW_TOKEN: "tok-123", HOST: "10.0.0.5", KEY: "sk-x" };
    const { config, warnings } = validateConfig(
      {
        gateway: { auth: { token: "${GW_TOKEN}" } },
        tools: { allow: ["${HOST}", "127.0.0.1"] },
        models: { providers: { p: { baseUrl: "http://${HOST}:8080/v1", headers: { "x-key": "Bearer ${KEY}" } } } },
      },
      env,
    );
    expect(warnings).toEqual([]);
    expect(config.gateway.auth.token).toBe("tok-123");
    expect(config.tools?.allow).toEqual(["10.0.0.5", "127.0.0.1"]);
    expect(config.models.providers?.p?.baseUrl).toBe("http://10.0.0.5:8080/v1");
    expect(config.models.providers?.p?.headers).toEqual({ "x-key": "Bearer sk-x" });
  });

  it("leaves a missing variable literally and warns with the key path", () => {
    const { config, warnings } = validateConfig({ gateway: { auth: { token: "${MISSING_TOKEN}" } } }, {});
    expect(config.gateway.auth.token).toBe("${MISSING_TOKEN}");
    expect(warnings).toEqual(['environment variable MISSING_TOKEN is not set (left "${MISSING_TOKEN}" as is) at gateway.auth.token']);
  });

  it("names array positions in the warning", () => {
    const { warnings } = validateConfig({ logging: { redactPatterns: ["ok", "${NOPE}"] } }, {});
    expect(warnings).toEqual(['environment variable NOPE is not set (left "${NOPE}" as is) at logging.redactPatterns[1]']);
  });

  it("turns $${VAR} into a literal ${VAR} without looking the variable up", () => {
    const { config, warnings } = validateConfig({ gateway: { auth: { password: "$${NOT_A_VAR}-${SET}" } } }, { SET: "s" });
    expect(config.gateway.auth.password).toBe("${NOT_A_VAR}-s");
    expect(warnings).toEqual([]);
  });

  it("ignores names that are not upper-case identifiers", () => {
    const { config, warnings } = validateConfig({ session: { mainKey: "${lower}-${9X}" } }, { lower: "no" });
    expect(config.session.mainKey).toBe("${lower}-${9X}");
    expect(warnings).toEqual([]);
  });

  it("substitutes an empty variable as empty, and does not warn about keys that are ignored", () => {
    const { config, warnings } = validateConfig({ logging: { file: "${EMPTY}" }, wizard: { x: "${MISSING}" } }, { EMPTY: "" });
    expect(config.logging.file).toBe("");
    expect(warnings).toEqual(['unknown config key "wizard" (ignored)']);
  });

  it("keeps substituted values as strings, so a numeric key still needs a number", () => {
    expect(() => validateConfig({ gateway: { port: "${PORT}" } }, { PORT: "1234" })).toThrow("gateway.port: expected integer 1-65535");
  });
});

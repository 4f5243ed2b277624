import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderOnboardConfig } from "../../../src/cli/onboard/config-template.js";
import { peekGatewayAddress } from "../../../src/config/gateway-peek.js";
import { parseConfigText } from "../../../src/config/parse.js";
import { makeTempDir, writeFile } from "./temp-dir.js";

describe("peekGatewayAddress", () => {
  it("reads gateway.port, bind, customBindHost and mode from a plain-JSON config", () => {
    const state = makeTempDir();
    writeFile(
      state,
      "openclaw.json",
      JSON.stringify({ gateway: { port: 18123, bind: "custom", customBindHost: "127.0.0.2", mode: "local", auth: { mode: "token" } }, agents: {} }),
    );
    expect(peekGatewayAddress(state, {})).toEqual({ port: 18123, bind: "custom", customBindHost: "127.0.0.2", mode: "local" });
  });

  it("gives up whenever the gateway has a tls section: what the port serves is known once the certificate is loaded", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.json", JSON.stringify({ gateway: { port: 18123, tls: { enabled: true } } }));
    expect(peekGatewayAddress(state, {})).toBeUndefined();
    const yamlState = makeTempDir();
    writeFile(yamlState, "openclaw.yaml", "gateway:\n  port: 18123\n  tls:\n    enabled: true\n");
    expect(peekGatewayAddress(yamlState, {})).toBeUndefined();
    writeFile(yamlState, "openclaw.yaml", "gateway:\n  port: 18123\n  tls: { enabled: true }\n");
    expect(peekGatewayAddress(yamlState, {})).toBeUndefined();
  });

  it("is empty without a config file or without a gateway section", () => {
    const state = makeTempDir();
    expect(peekGatewayAddress(state, {})).toEqual({});
    writeFile(state, "openclaw.json", JSON.stringify({ agents: { defaults: { model: { primary: "a/b" } } } }));
    expect(peekGatewayAddress(state, {})).toEqual({});
  });

  it("reads the file loadConfig would: $OPENCLAW_CONFIG_PATH first, then the state dir's preferred name", () => {
    const state = makeTempDir();
    const elsewhere = makeTempDir();
    writeFile(state, "openclaw.json", JSON.stringify({ gateway: { port: 1111 } }));
    const explicit = writeFile(elsewhere, "custom.json", JSON.stringify({ gateway: { port: 2222 } }));
    expect(peekGatewayAddress(state, {})).toEqual({ port: 1111 });
    expect(peekGatewayAddress(state, { OPENCLAW_CONFIG_PATH: explicit })).toEqual({ port: 2222 });
    // A YAML file outranks openclaw.json in the state dir.
    writeFile(state, "openclaw.yaml", "gateway:\n  port: 3333\n");
    expect(peekGatewayAddress(state, {})).toEqual({ port: 3333 });
    // A missing explicit file is the full load's to report.
    expect(peekGatewayAddress(state, { OPENCLAW_CONFIG_PATH: path.join(elsewhere, "missing.json") })).toBeUndefined();
  });

  it("gives up on JSON5 syntax, which only the full parser reads", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.json5", "{\n  // the gateway\n  gateway: { port: 4444, },\n}\n");
    expect(peekGatewayAddress(state, {})).toBeUndefined();
    writeFile(state, "openclaw.json", '{"gateway": {"port": 4444,}}');
    expect(peekGatewayAddress(state, {})).toBeUndefined();
  });

  it("gives up on a ${VAR} reference in a field it reads, but not elsewhere in the file", () => {
    const state = makeTempDir();
    writeFile(state, "openclaw.json", JSON.stringify({ gateway: { bind: "custom", customBindHost: "${GATEWAY_HOST}" } }));
    expect(peekGatewayAddress(state, {})).toBeUndefined();
    writeFile(state, "openclaw.json", JSON.stringify({ gateway: { mode: "${MODE}" } }));
    expect(peekGatewayAddress(state, {})).toBeUndefined();
    writeFile(state, "openclaw.json", JSON.stringify({ gateway: { port: 5555, auth: { token: "${GATEWAY_TOKEN}" } }, models: { providers: { x: { apiKey: "${KEY}" } } } }));
    expect(peekGatewayAddress(state, {})).toEqual({ port: 5555 });
  });

  it("gives up on fields the full load would reject or convert", () => {
    const state = makeTempDir();
    for (const gateway of [{ port: "18789" }, { port: 0 }, { port: 70000 }, { port: 1.5 }, { bind: 1 }, { customBindHost: ["x"] }, { mode: null }]) {
      writeFile(state, "openclaw.json", JSON.stringify({ gateway }));
      expect(peekGatewayAddress(state, {}), JSON.stringify(gateway)).toBeUndefined();
    }
    for (const root of ["[]", '"text"', '{"gateway": []}', '{"gateway": "local"}', ""]) {
      writeFile(state, "openclaw.json", root);
      expect(peekGatewayAddress(state, {}), root).toBeUndefined();
    }
  });
});

describe("peekGatewayAddress on YAML", () => {
  const onboardYaml = renderOnboardConfig({ provider: "anthropic", model: "claude-sonnet-4-5", apiKeyEnv: "ANTHROPIC_API_KEY", port: 18555 }, new Date("2026-12-01T00:00:00Z"));
  const exampleYaml = fs.readFileSync(new URL("../../../openclaw.example.yaml", import.meta.url), "utf8");

  /** What the real parser makes of the same fields. */
  function parsedFields(text: string): Record<string, unknown> {
    const gateway = ((parseConfigText(text, "openclaw.yaml") as { gateway?: Record<string, unknown> }).gateway ?? {}) as Record<string, unknown>;
    return Object.fromEntries(["port", "bind", "customBindHost", "mode"].filter((k) => gateway[k] !== undefined).map((k) => [k, gateway[k]]));
  }

  it("reads the shape onboarding writes, and the shipped example, as the YAML parser does", () => {
    const state = makeTempDir();
    const handWritten =
      "gateway:\n  port: 18600   # moved\n  bind: \"custom\"\n  customBindHost: '127.0.0.2'\n  auth:\n    mode: token\n  remote:\n    url: ws://example:1\nlogging:\n  level: debug\n";
    for (const text of [onboardYaml, exampleYaml, handWritten, "agents:\n  defaults: {}\n", "\uFEFFgateway:\r\n  port: 18601\r\n"]) {
      writeFile(state, "openclaw.yaml", text);
      expect(peekGatewayAddress(state, {}), text.slice(0, 40)).toEqual(parsedFields(text));
    }
    writeFile(state, "openclaw.yaml", onboardYaml);
    expect(peekGatewayAddress(state, {})).toEqual({ port: 18555, bind: "loopback", mode: "local" });
  });

  it("gives up on YAML that only the parser can read", () => {
    const state = makeTempDir();
    for (const text of [
      "gateway: {port: 18789}\n",
      "gateway: &gw\n  port: 18789\n",
      "base: &b\n  port: 1\ngateway:\n  <<: *b\n",
      '"gateway":\n  port: 18789\n',
      "---\ngateway:\n  port: 18789\n",
      "gateway:\n\tport: 18789\n",
      "gateway:\n  port: 1\ngateway:\n  port: 2\n",
      "gateway:\n  port: 1\n  port: 2\n",
      'gateway:\n  port: "18789"\n',
      "gateway:\n  port: 0x4000\n",
      "gateway:\n  bind: ${BIND}\n",
      "gateway:\n  bind: |\n    loopback\n",
      "gateway:\n  bind: !!str loopback\n",
      "  gateway:\n    port: 18789\n",
      "gateway:\n    port: 1\n  bind: lan\n",
      "? gateway\n: {}\n",
    ]) {
      writeFile(state, "openclaw.yaml", text);
      expect(peekGatewayAddress(state, {}), JSON.stringify(text)).toBeUndefined();
    }
  });
});

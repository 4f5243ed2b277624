import path from "node:path";
import { describe, expect, it } from "vitest";
import { peekGatewayAddress } from "../../../src/config/gateway-peek.js";
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
    // A YAML file outranks openclaw.json in the state dir, and YAML is never peeked.
    writeFile(state, "openclaw.yaml", "gateway:\n  port: 3333\n");
    expect(peekGatewayAddress(state, {})).toBeUndefined();
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

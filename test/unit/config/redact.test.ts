import { describe, expect, it } from "vitest";
import { redactConfig } from "../../../src/config/index.js";

const R = "__OPENCLAW_REDACTED__";

describe("redactConfig", () => {
  it("replaces secret-looking values and leaves everything else", () => {
    const input = {
      gateway: { port: 18789, auth: { mode: "token", token: "t0k", password: "pw" }, remote: { token: "rt" } },
      models: { providers: { fake: { apiKey: "sk-1", baseUrl: "http://x", headers: { Authorization: "Bearer z", "x-api-key": "k", Accept: "json" } } } },
      channels: { slack: { botToken: "xoxb", appToken: "xapp", signingSecret: "ss", accounts: [{ clientSecret: "cs", name: "a" }] } },
      hooks: { secret: "h", webhookKey: "wk", API_KEY: "ak" },
      session: { mainKey: "main" },
    };
    expect(redactConfig(input)).toEqual({
      gateway: { port: 18789, auth: { mode: "token", token: R, password: R }, remote: { token: R } },
      models: { providers: { fake: { apiKey: R, baseUrl: "http://x", headers: { Authorization: R, "x-api-key": R, Accept: "json" } } } },
      channels: { slack: { botToken: R, appToken: R, signingSecret: R, accounts: [{ clientSecret: R, name: "a" }] } },
      hooks: { secret: R, webhookKey: R, API_KEY: R },
      session: { mainKey: "main" },
    });
  });

  it("returns a deep copy and never touches its input", () => {
    const input = { gateway: { auth: { token: "t" } }, list: [{ password: "p" }] };
    const out = redactConfig(input);
    expect(input.gateway.auth.token).toBe("t");
    expect(input.list[0]!.password).toBe("p");
    expect(out.list).not.toBe(input.list);
  });

  it("redacts numeric secrets but keeps non-string values under suffix names, env references and empty strings", () => {
    expect(redactConfig({ password: 123456, maxTokens: 10, someKey: 5, token: "${GW_TOKEN}", apiKey: "", nested: { token: { source: "env", id: "X" } } })).toEqual({
      password: R,
      maxTokens: 10,
      someKey: 5,
      token: "${GW_TOKEN}",
      apiKey: "",
      nested: { token: { source: "env", id: "X" } },
    });
  });
  it("hides every value of an MCP server's env and a local model server's env, whatever the variable's name", () => {
    const out = redactConfig({
      mcp: { servers: { files: { command: "/bin/mcp", env: { DATABASE_URL: "postgres://u:pw@h/db", REF: "${OTHER}" } } } },
      models: { providers: { local: { localService: { command: "/bin/srv", args: ["--port", "8000"], env: { HF_HOME: "/cache", MODEL_URL: "https://u:pw@h/m" } } } } },
    });
    expect(out.mcp.servers.files.env).toEqual({ DATABASE_URL: R, REF: "${OTHER}" });
    expect(out.models.providers.local.localService).toEqual({ command: "/bin/srv", args: ["--port", "8000"], env: { HF_HOME: R, MODEL_URL: R } });
  });
});

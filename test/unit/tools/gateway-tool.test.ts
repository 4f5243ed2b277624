import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/index.js";
import { CONFIG_GET_MAX_CHARS, createGatewayTool } from "../../../src/agents/tools/gateway.js";
import type { GatewayToolHost, ToolResult } from "../../../src/agents/types.js";
import { errorOf, makeContext, neverAborted, textOf } from "./helpers.js";

const tool = createGatewayTool();

const run = (args: Parameters<typeof tool.execute>[0], gateway?: GatewayToolHost): Promise<ToolResult> =>
  tool.execute(args, makeContext("/tmp", gateway ? { gateway } : {}), neverAborted);

function host(snapshot: Partial<ReturnType<GatewayToolHost["configSnapshot"]>>): GatewayToolHost {
  return { configSnapshot: () => ({ config: {}, hash: "h1", ...snapshot }), schemaLookup: () => null };
}

describe("gateway tool", () => {
  it("is for the owner only, and says so outside the gateway", async () => {
    expect(tool.ownerOnly).toBe(true);
    expect(errorOf(await run({ action: "config.get" }))).toMatchObject({ error: "GATEWAY_UNAVAILABLE" });
  });

  it("a config too large for one answer is an error that says to ask for a part; a part is answered", async () => {
    const big = { agents: { defaults: { notes: "x".repeat(CONFIG_GET_MAX_CHARS) } }, logging: { level: "info" } };
    const gateway = host({ config: big });
    const whole = await run({ action: "config.get" }, gateway);
    expect(errorOf(whole)).toMatchObject({ error: "CONFIG_TOO_LARGE", suggestion: expect.stringMatching(/path/) });
    expect(JSON.parse(textOf(await run({ action: "config.get", path: "logging" }, gateway)))).toEqual({
      ok: true,
      result: { hash: "h1", path: "logging", config: { level: "info" } },
    });
  });

  it("an invalid config file's issues are named when a part is asked for; a file that cannot be read is an error, not a crash", async () => {
    const invalid = host({ config: null, issues: [{ message: "gateway.port: must be an integer" }] } as never);
    expect(errorOf(await run({ action: "config.get", path: "gateway" }, invalid)).message).toContain("gateway.port: must be an integer");
    const unreadable: GatewayToolHost = {
      configSnapshot: () => {
        throw new ConfigError("cannot read config file /x/openclaw.json: EACCES");
      },
      schemaLookup: () => null,
    };
    expect(errorOf(await run({ action: "config.get" }, unreadable))).toMatchObject({ error: "CONFIG_UNREADABLE" });
  });

  it("config.schema.lookup needs a path", async () => {
    expect(errorOf(await run({ action: "config.schema.lookup" }, host({})))).toMatchObject({ error: "INVALID_ARGUMENT" });
  });
});

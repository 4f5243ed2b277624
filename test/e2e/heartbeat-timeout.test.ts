import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { lastUserText } from "../helpers/reliability.js";

/** A heartbeat's turn is aborted at `heartbeat.timeoutSeconds`, and the next message of the main session is not held by it. */

const servers = useFakeServers();

describe("heartbeat timeoutSeconds", { timeout: 60_000 }, () => {
  it("a beat whose model does not answer in time ends as failed at the limit, and the main session answers the next message", async () => {
    const stateDir = makeTempDir("openclaw-heartbeat-timeout-");
    servers.model.setResponder((req) => (lastUserText(req).includes("the disk is full") ? { text: "too late", delayMs: 20_000 } : { text: "hello back" }));
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir));
    config.agents.defaults = { ...config.agents.defaults, heartbeat: { every: "30m", timeoutSeconds: 1 } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };

    const startedAt = Date.now();
    expect((await runCli(["gateway", "call", "wake", "--params", JSON.stringify({ mode: "now", text: "the disk is full" })], env)).code).toBe(0);
    let last: { status?: string; reason?: string } | null = null;
    while (Date.now() - startedAt < 15_000) {
      last = JSON.parse((await runCli(["gateway", "call", "last-heartbeat"], env)).output);
      if (last?.status) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(last).toMatchObject({ status: "failed", reason: expect.stringMatching(/timeout|timed out/i) });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    const reply = await runCli(["agent", "-m", "hi", "--agent", "main"], env);
    expect(reply.output).toContain("hello back");
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { chatRequests } from "../helpers/reliability.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * A heartbeat interval longer than one Node timer holds (2^31 - 1 ms, about 24.8 days) waits
 * that long: it is not read as "at once". Real gateway process.
 */

const servers = useFakeServers();

describe("heartbeat every 30d", { timeout: 60_000 }, () => {
  it("does not beat at start, nor soon after", async () => {
    const stateDir = makeTempDir("openclaw-heartbeat-long-");
    const workspace = path.join(stateDir, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, "HEARTBEAT.md"), "# Tasks\n\n- Check the inbox.\n");
    servers.model.setResponder(() => ({ text: "HEARTBEAT_OK" }));
    const config = JSON.parse(fakeModelConfig(servers.model, stateDir));
    config.agents.defaults.heartbeat = { every: "30d" };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await runCli(["gateway", "call", "last-heartbeat"], env)).output.trim()).toBe("null");
    expect(chatRequests(servers.model)).toHaveLength(0);
    const health = JSON.parse((await runCli(["gateway", "call", "health"], env)).output);
    expect(JSON.stringify(health)).toContain('"every":"30d"');
  });
});

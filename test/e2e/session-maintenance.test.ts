import { describe, expect, it } from "vitest";
import { askAndWait } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { readIndex } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/** `session.maintenance` through the real gateway: what a start-up's pass keeps, archives or only reports. */

const servers = useFakeServers();

describe("session.maintenance", { timeout: 60_000 }, () => {
  it("maxEntries archives the least recently updated sessions at start-up; mode warn only logs them", async () => {
    const stateDir = makeTempDir("openclaw-maintenance-");
    servers.model.setResponder(() => ({ text: "noted" }));
    const start = (maintenance: Record<string, unknown>) =>
      startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { session: { maintenance } }) } });
    const send = async (gateway: GatewayProcess, sessionKey: string) => {
      const { sock } = await openOperator(gateway.url, gateway.token);
      await askAndWait(sock, sessionKey, "hello");
      sock.close();
    };
    const kept = () => Object.keys(readIndex(stateDir)).sort();

    let gateway = servers.keep(await start({}));
    for (const name of ["first", "second", "third"]) await send(gateway, name);
    await gateway.stop();
    expect(kept()).toEqual(["agent:main:first", "agent:main:second", "agent:main:third"]);

    gateway = servers.keep(await start({ mode: "warn", maxEntries: 1 }));
    await gateway.waitForOutput(/sessions due for archiving kept/, 10_000);
    await gateway.stop();
    expect(kept()).toHaveLength(3);

    gateway = servers.keep(await start({ maxEntries: 1 }));
    await gateway.stop();
    expect(kept()).toEqual(["agent:main:third"]);
  });
});

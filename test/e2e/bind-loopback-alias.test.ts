import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { acceptsConnections, closedPort } from "../helpers/ports.js";
import { connectParams, openOperator, TestSocket } from "../helpers/ws-client.js";

// `custom` with 127.0.0.2: a second address this machine always has, and one the gateway treats like
// any specific IPv4 address (it is not 127.0.0.1, so 127.0.0.1 is added beside it). Tests send
// traffic to loopback only, so a LAN or tailnet address cannot be used here.
const CUSTOM_HOST = "127.0.0.2";

function stateWithCustomBind(port?: number): string {
  const stateDir = makeTempDir();
  const gateway = { bind: "custom", customBindHost: CUSTOM_HOST, ...(port === undefined ? {} : { port }) };
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify({ gateway }));
  return stateDir;
}

let gateway: GatewayProcess | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

describe("gateway.bind custom / tailnet: the chosen address and 127.0.0.1 on the same port", () => {
  it("serves 127.0.0.1 with the same auth, reports the chosen address, and closes both on stop", async () => {
    gateway = await startGateway({ stateDir: stateWithCustomBind() });
    const { port, token, stateDir } = gateway;
    expect(gateway.output()).toContain(`"host":"${CUSTOM_HOST}","port":${port},"alsoListening":"127.0.0.1"`);

    for (const host of [CUSTOM_HOST, "127.0.0.1"]) {
      const { sock, hello } = await openOperator(`ws://${host}:${port}`, token);
      expect(hello.type).toBe("hello-ok");
      sock.close();
      expect((await fetch(`http://${host}:${port}/readyz`)).status).toBe(200);
    }
    // Same auth on the loopback listener: a wrong token is refused there too.
    const wrong = await TestSocket.open(`ws://127.0.0.1:${port}`);
    const refused = await wrong.connect(connectParams("not-the-token"));
    expect(refused.ok).toBe(false);
    wrong.close();

    // The lock file and `gateway status` name the chosen address, not the loopback one.
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, "gateway.lock"), "utf8"))).toMatchObject({ host: CUSTOM_HOST, port });
    const status = await runCli(["gateway", "status", "--json"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: token });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.output)).toMatchObject({ running: true, host: CUSTOM_HOST, port });

    // A client still connected through 127.0.0.1 is let go when the gateway stops.
    const { sock: open } = await openOperator(`ws://127.0.0.1:${port}`, token);
    expect(await gateway.stop()).toBe(0);
    gateway = undefined;
    await open.closed;
    expect(await acceptsConnections(port, CUSTOM_HOST)).toBe(false);
    expect(await acceptsConnections(port, "127.0.0.1")).toBe(false);
  });

  it("refuses to start when 127.0.0.1 on that port is taken, naming the address and the fix", async () => {
    const port = await closedPort();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
    try {
      const stateDir = stateWithCustomBind(port);
      const run = await runCli(["gateway", "run"], { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: "alias-token" });
      expect(run.code).toBe(1);
      expect(run.output).toContain(`127.0.0.1:${port} is already in use`);
      expect(run.output).toContain("gateway.port");
      // Nothing was left listening on the chosen address, and the lock was given back.
      expect(await acceptsConnections(port, CUSTOM_HOST)).toBe(false);
      expect(fs.existsSync(path.join(stateDir, "gateway.lock"))).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { runCli, type GatewayProcess } from "../helpers/gateway-process.js";
import { agentConfig, chatRequests, makeFastTempDir, removeFastTempDirs, requestMessages, startOn } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * `agents.defaults.sandbox` in a real gateway: with mode non-main, the agent's main session runs
 * exec on the host and every other session in bubblewrap (no network, only the workspace);
 * `openclaw sandbox explain` says which and why.
 */

const TOKEN = "sandbox-token";
const PROBE = "echo IFACES=$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ,) STATE=$(ls $OPENCLAW_PROBE_STATE/openclaw.json 2>&1)";
let server: FakeModelServer;
let gw: GatewayProcess;
let rpc: Rpc;
let stateDir: string;

beforeAll(async () => {
  server = await startFakeModelServer();
  stateDir = makeFastTempDir();
  const config = agentConfig(server, stateDir, { agentDefaults: { sandbox: { mode: "non-main", backend: "bwrap", workspaceAccess: "rw" } } });
  fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
  gw = await startOn(stateDir, TOKEN);
  rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
});
afterAll(async () => {
  rpc?.sock.close();
  await gw?.stop();
  await server?.close();
  removeFastTempDirs();
});

/** One turn whose model runs the probe through exec; returns the tool result the model saw. */
async function probe(sessionKey: string, id: string): Promise<string> {
  server.enqueue({ toolCalls: [{ id: `call_${id}`, name: "exec", arguments: { command: PROBE.replace("$OPENCLAW_PROBE_STATE", stateDir) } }] }, { text: "probed" });
  const sent = await rpc.request("chat.send", { sessionKey, message: "probe", idempotencyKey: id });
  expect(sent.ok, JSON.stringify(sent.error)).toBe(true);
  const waited = await rpc.request("agent.wait", { runId: id, timeoutMs: 30_000 }, 35_000);
  expect(waited.payload.status).toBe("ok");
  const followUp = chatRequests(server).at(-1)!;
  return requestMessages(followUp)
    .filter((m) => m.role === "tool")
    .map((m) => m.text)
    .join("\n");
}

describe("the exec sandbox in a running gateway", () => {
  it("non-main: the main session runs on the host, another session in bubblewrap without network or state dir", async () => {
    const host = await probe("agent:main:main", "sbx-main");
    expect(/IFACES=(\S*)/.exec(host)![1]!.split(",").filter(Boolean).length).toBeGreaterThan(1);
    expect(host).toContain(`STATE=${stateDir}/openclaw.json`);

    const boxed = await probe("agent:main:other", "sbx-other");
    expect(/IFACES=(\S*)/.exec(boxed)![1]).toBe("lo,");
    expect(boxed).toMatch(/STATE=ls: cannot access .*openclaw\.json.*No such file or directory/);
  });

  it("openclaw sandbox explain says what a session gets", async () => {
    const env = { OPENCLAW_STATE_DIR: stateDir };
    const other = await runCli(["sandbox", "explain", "--session", "agent:main:other", "--json"], env);
    expect(other.code).toBe(0);
    const parsed = JSON.parse(other.output);
    expect(parsed).toMatchObject({ agentId: "main", sandboxed: true, backend: "bwrap", backendInstalled: true, network: "none", writable: true, workspaceAccess: "rw" });
    expect(parsed.tools).toContain("exec");
    expect(parsed.tools).not.toContain("web_fetch");
    const main = await runCli(["sandbox", "explain"], env);
    expect(main.code).toBe(0);
    expect(main.output).toContain("sandboxed: no (sandbox.mode is non-main and this is the agent's main session)");
  });
});

import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { messagesOf } from "../helpers/model-request.js";
import { chatRequests } from "../helpers/reliability.js";
import { openOperator } from "../helpers/ws-client.js";

/** `allow-always` grants through the real gateway: kept in `<state>/exec-grants.json` across a restart, listed by `exec.approvals.get`. */

const servers = useFakeServers();

/** One `agent` turn whose model runs `ls -a` in the workspace; `answer` answers the approval it must ask for. Resolves whether it asked. */
async function listTurn(gateway: GatewayProcess, workspace: string, answer?: "allow-always" | "allow-once"): Promise<boolean> {
  const { sock } = await openOperator(gateway.url, gateway.token);
  try {
    const sent = await sock.request("agent", { message: "list the workspace", agentId: "main", sessionKey: `agent:main:${randomUUID()}`, idempotencyKey: randomUUID() });
    if (answer) {
      const asked = await sock.waitFor((f) => f.event === "exec.approval.requested", 20_000);
      expect(asked.payload).toMatchObject({ request: { command: "ls -a", cwd: fs.realpathSync(workspace) } });
      await sock.request("exec.approval.resolve", { id: asked.payload.id, decision: answer });
    }
    const done = await sock.waitFor((f) => f.type === "res" && f.id === sent.id && f.payload?.status !== "accepted", 20_000);
    expect(done.payload.status).toBe("ok");
    return sock.frames.some((f) => f.event === "exec.approval.requested");
  } finally {
    sock.close();
  }
}

function setUp() {
  const stateDir = makeTempDir("openclaw-exec-grants-");
  const workspace = path.join(stateDir, "workspace");
  const config = fakeModelConfig(servers.model, stateDir, { tools: { exec: { mode: "ask" } } });
  servers.model.setResponder((request) =>
    JSON.stringify(request.body).includes("call_list") ? { text: "listed" } : { toolCalls: [{ id: "call_list", name: "exec", arguments: { command: "ls -a" } }] },
  );
  const start = () => startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }).then((gw) => servers.keep(gw));
  return { stateDir, workspace, start };
}

describe("exec allow-always grants", { timeout: 60_000 }, () => {
  it("an allow-always grant outlives a restart: the same command in the same workspace runs without asking, and exec.approvals.get lists it", async () => {
    const { stateDir, workspace, start } = setUp();
    const turn = (gateway: GatewayProcess, answer?: "allow-always") => listTurn(gateway, workspace, answer);

    let gateway = await start();
    expect(await turn(gateway, "allow-always")).toBe(true);
    await gateway.stop();
    expect(fs.statSync(path.join(stateDir, "exec-grants.json")).mode & 0o777).toBe(0o600);

    gateway = await start();
    expect(await turn(gateway)).toBe(false);
    const toolResult = JSON.stringify(messagesOf(chatRequests(servers.model).at(-1)!).find((m) => m.role === "tool")?.content);
    expect(toolResult).toContain("AGENTS.md");
    expect(toolResult).not.toContain("denied");
    const { sock } = await openOperator(gateway.url, gateway.token);
    const approvals = await sock.request("exec.approvals.get", {});
    sock.close();
    expect(approvals.payload.file.agents.main.allowlist).toEqual([
      {
        pattern: "ls",
        argPattern: expect.stringMatching(/^sha256:cwd-argv:v1:[0-9a-f]{64}$/),
        argv: ["ls", "-a"],
        cwd: fs.realpathSync(workspace),
        source: "allow-always",
        addedAt: expect.any(Number),
      },
    ]);
  });

  it("exec.approvals.set as openclaw approvals allowlist remove sends it takes a grant back: the command asks again, after a restart too", async () => {
    const { stateDir, workspace, start } = setUp();
    let gateway = await start();
    expect(await listTurn(gateway, workspace, "allow-always")).toBe(true);
    expect(await listTurn(gateway, workspace)).toBe(false);

    // `openclaw approvals allowlist remove ls --gateway --agent main`: get, leave main's `ls` entries out, set with the hash read.
    const { sock } = await openOperator(gateway.url, gateway.token, { scopes: ["operator.admin"] });
    const before = (await sock.request("exec.approvals.get", {})).payload;
    const file = structuredClone(before.file);
    file.agents.main.allowlist = file.agents.main.allowlist.filter((entry: { pattern: string }) => entry.pattern !== "ls");
    const stale = await sock.request("exec.approvals.set", { file, baseHash: "0".repeat(64) });
    expect(stale.error?.message).toBe("exec approvals changed since last load; re-run exec.approvals.get and retry");
    const set = await sock.request("exec.approvals.set", { file, baseHash: before.hash });
    sock.close();
    expect(set.ok, JSON.stringify(set.error)).toBe(true);
    expect(set.payload.file.agents.main).toBeUndefined();
    expect(set.payload.hash).not.toBe(before.hash);
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, "exec-grants.json"), "utf8"))).toEqual({ version: 1, agents: {} });

    // Asked again, and again after a restart: the grant is gone from the file too.
    expect(await listTurn(gateway, workspace, "allow-once")).toBe(true);
    await gateway.stop();
    gateway = await start();
    expect(await listTurn(gateway, workspace, "allow-once")).toBe(true);
  });
});

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

describe("exec allow-always grants", { timeout: 60_000 }, () => {
  it("an allow-always grant outlives a restart: the same command in the same workspace runs without asking, and exec.approvals.get lists it", async () => {
    const stateDir = makeTempDir("openclaw-exec-grants-");
    const workspace = path.join(stateDir, "workspace");
    const config = fakeModelConfig(servers.model, stateDir, { tools: { exec: { security: "allowlist", ask: "on-miss" } } });
    servers.model.setResponder((request) =>
      JSON.stringify(request.body).includes("call_list") ? { text: "listed" } : { toolCalls: [{ id: "call_list", name: "exec", arguments: { command: "ls -a" } }] },
    );
    const start = () => startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } }).then((gw) => servers.keep(gw));
    const turn = async (gateway: GatewayProcess, answer?: "allow-always") => {
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
    };

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
});

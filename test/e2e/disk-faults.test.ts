import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { agentConfig, makeAgentState, removeFastTempDirs, startOn } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * A log write that fails is never fatal: `/dev/full` answers every write with ENOSPC, as a full
 * disk does. The gateway must keep serving turns and report the dropped lines in `status`.
 */
const TOKEN = "log-full-token";
let server: FakeModelServer;
const gateways: GatewayProcess[] = [];

afterAll(async () => {
  for (const gw of gateways) await gw.stop();
  await server?.close();
  removeFastTempDirs();
});

async function answer(rpc: Rpc, sessionKey: string, text: string, id: string): Promise<void> {
  server.enqueue({ text });
  const res = await rpc.request("agent", { sessionKey, message: "hi", idempotencyKey: id });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  const waited = await rpc.request("agent.wait", { runId: id, timeoutMs: 10_000 });
  expect(waited.payload.status).toBe("ok");
}

describe("the log file", () => {
  it("on a full disk: lines are dropped and counted, turns are still answered", async () => {
    server = await startFakeModelServer();
    const stateDir = makeAgentState(server, { extra: { logging: { file: "/dev/full", level: "debug" } } });
    const gw = await startOn(stateDir, TOKEN);
    gateways.push(gw);
    const rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
    await answer(rpc, "agent:main:main", "still here", "full-1");
    await answer(rpc, "agent:main:main", "still here twice", "full-2");
    const status = await rpc.request("status", {});
    expect(status.payload.logging).toMatchObject({ file: "/dev/full", lastError: { code: "ENOSPC" } });
    expect(status.payload.logging.droppedLines).toBeGreaterThan(0);
    expect((await rpc.request("health", {})).ok).toBe(true);
    rpc.sock.close();
  });

  it("is created 0600 and masks logging.redactPatterns", async () => {
    server ??= await startFakeModelServer();
    const stateDir = makeAgentState(server);
    const logFile = path.join(stateDir, "logs", "masked.log");
    // An unknown key's warning carries its name into the log: the pattern must mask it there.
    const config = { ...agentConfig(server, stateDir), logging: { file: logFile, redactPatterns: ["acct-[0-9]{8}"] }, "acct-12345678": true };
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), JSON.stringify(config));
    const gw = await startOn(stateDir, TOKEN);
    gateways.push(gw);
    const text = fs.readFileSync(logFile, "utf8");
    expect(text).toContain("[redacted]");
    expect(text).not.toContain("acct-12345678");
    expect(fs.statSync(logFile).mode & 0o777).toBe(0o600);
  });
});

describe("state writes that fail", () => {
  it("a new session whose files cannot be written: chat.send names the cause; once fixed, the gateway goes on", async () => {
    server ??= await startFakeModelServer();
    const stateDir = makeAgentState(server);
    const gw = await startOn(stateDir, TOKEN);
    gateways.push(gw);
    const rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
    await answer(rpc, "agent:main:main", "first", "nodir-1");

    const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
    fs.renameSync(sessionsDir, `${sessionsDir}.moved`);
    fs.writeFileSync(sessionsDir, "a file where the sessions dir belongs");
    const refused = await rpc.request("chat.send", { sessionKey: "agent:main:other", message: "hi", idempotencyKey: "nodir-2" });
    expect(refused.ok).toBe(false);
    expect(refused.error.message).toMatch(
      /^chat\.send failed: could not write to the state dir \(<state>\/agents\/main\/sessions.*\): a path component is a file where a directory belongs; move it aside$/,
    );

    fs.rmSync(sessionsDir);
    fs.renameSync(`${sessionsDir}.moved`, sessionsDir);
    await answer(rpc, "agent:main:other", "fixed", "nodir-3");
    rpc.sock.close();
  });

  it('a new /v1 session whose files cannot be written: the answer names the cause, not "internal error"', async () => {
    server ??= await startFakeModelServer();
    const stateDir = makeAgentState(server, { http: true });
    const gw = await startOn(stateDir, TOKEN);
    gateways.push(gw);
    const rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
    await answer(rpc, "agent:main:main", "first", "v1nodir-1");
    rpc.sock.close();

    const sessionsDir = path.join(stateDir, "agents", "main", "sessions");
    fs.renameSync(sessionsDir, `${sessionsDir}.moved`);
    fs.writeFileSync(sessionsDir, "a file where the sessions dir belongs");
    const cause = /could not write to the state dir \(<state>\/agents\/main\/sessions.*\): a path component is a file where a directory belongs; move it aside/;
    const post = (stream: boolean) =>
      fetch(`${gw.httpUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "openclaw", stream, messages: [{ role: "user", content: "hi" }] }),
      });
    const blocking = await post(false);
    expect(blocking.status).toBe(503);
    const body = (await blocking.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error).toMatchObject({ type: "api_error", code: "state_write_failed" });
    expect(body.error.message).toMatch(cause);
    const streamed = await (await post(true)).text();
    expect(streamed).toMatch(cause);
    expect(streamed).not.toContain("internal error");

    fs.rmSync(sessionsDir);
    fs.renameSync(`${sessionsDir}.moved`, sessionsDir);
    const fixed = await post(false);
    expect(fixed.status).toBe(200);
  });
});

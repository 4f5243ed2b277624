import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { mutateText, mutateValue, randomValue, Rng } from "../helpers/fuzz.js";
import { transcriptFiles } from "../helpers/reliability.js";
import { useRpcGateway } from "../helpers/rpc-gateway.js";
import { connectParams, openOperator, TestSocket } from "../helpers/ws-client.js";

/**
 * The fuzz lane: seeded random and mutated input against one real gateway — protocol frames
 * (before and after the handshake), `/v1` bodies, config files through hot reload, and
 * transcript lines — between acknowledged messages to a control session. Afterwards the process
 * is still running, answers `health`, and the control session holds every acknowledged message.
 * Fixed seeds make every run send the same bytes; iteration counts bound the time.
 */

const TOKEN = "fuzz-token";
const SEED = 0x0c1a_0021;
const CONTROL = "agent:main:fuzz-control";
const acked: string[] = [];

const fixture = useRpcGateway(TOKEN, {
  http: true,
  configure: (config) => {
    config.gateway.http.endpoints.responses = { enabled: true };
  },
});

/** One acknowledged message to the control session; its text is kept to find it later. */
async function controlMessage(n: number): Promise<void> {
  const text = `control message ${n}`;
  const res = await fixture.rpc.request("chat.send", { sessionKey: CONTROL, message: text, idempotencyKey: `control-${n}` }, 20_000);
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  acked.push(text);
}

const SAFE_FRAMES = (rng: Rng) => [
  { type: "req", id: `f${rng.int(1e9)}`, method: "health" },
  { type: "req", id: `f${rng.int(1e9)}`, method: "status" },
  { type: "req", id: `f${rng.int(1e9)}`, method: "sessions.list", params: { limit: 5 } },
  { type: "req", id: `f${rng.int(1e9)}`, method: "chat.history", params: { sessionKey: "fuzz-frames", limit: 3 } },
  { type: "req", id: `f${rng.int(1e9)}`, method: "chat.send", params: { sessionKey: "fuzz-frames", message: "hi", idempotencyKey: `fz-${rng.int(1e9)}` } },
  { type: "req", id: `f${rng.int(1e9)}`, method: "agent.wait", params: { runId: "nope", timeoutMs: 0 } },
];

async function openRaw(url: string): Promise<TestSocket> {
  return TestSocket.open(url);
}

describe("fuzz lane", () => {
  it("survives mutated protocol frames, /v1 bodies, config files and transcript lines, losing nothing acknowledged", async () => {
    const rng = new Rng(SEED);
    let n = 0;
    await controlMessage(n++);

    // 1. Protocol frames: mutated requests on an authenticated socket, junk before the handshake.
    const sockets: TestSocket[] = [];
    const reopen = async () => {
      const sock = (await openOperator(fixture.gw.url, TOKEN)).sock;
      sockets.push(sock);
      return sock;
    };
    let authed = await reopen();
    for (let i = 0; i < 250; i += 1) {
      if (authed.ws.readyState !== WebSocket.OPEN) authed = await reopen();
      const frame = mutateValue(rng, rng.pick(SAFE_FRAMES(rng)));
      const text = JSON.stringify(frame) ?? "null";
      authed.send(rng.chance(0.2) ? mutateText(rng, text) : rng.chance(0.05) ? Buffer.from(text) : text);
      if (i % 50 === 0) await controlMessage(n++);
    }
    for (let i = 0; i < 20; i += 1) {
      const raw = await openRaw(fixture.gw.url);
      const connect = { type: "req", id: "c1", method: "connect", params: connectParams(TOKEN) };
      raw.send(rng.chance(0.5) ? JSON.stringify(mutateValue(rng, connect)) : mutateText(rng, JSON.stringify(randomValue(rng))));
      raw.close();
    }
    // Answered both ways: some mutated requests still run, the others get an error response.
    await authed.request("health", {}).catch(() => undefined);
    const responses = sockets.flatMap((sock) => sock.frames.filter((f) => f.type === "res" && f.id !== undefined));
    expect(responses.some((f) => f.ok === true)).toBe(true);
    expect(responses.some((f) => f.ok === false)).toBe(true);
    for (const sock of sockets) sock.close();
    expect((await fixture.rpc.request("health", {})).ok).toBe(true);

    // 2. /v1 bodies: mutated chat completions and responses requests.
    const bodies = [
      { path: "/v1/chat/completions", body: { model: "openclaw", messages: [{ role: "user", content: "hi" }] } },
      {
        path: "/v1/chat/completions",
        body: {
          model: "openclaw",
          stream: true,
          messages: [
            { role: "system", content: "s" },
            { role: "user", content: [{ type: "text", text: "hi" }] },
          ],
        },
      },
      { path: "/v1/responses", body: { model: "openclaw", input: "hi" } },
      { path: "/v1/responses", body: { model: "openclaw", stream: true, input: [{ role: "user", content: "hi" }] } },
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 120; i += 1) {
      const seed = rng.pick(bodies);
      const json = JSON.stringify(mutateValue(rng, seed.body)) ?? "null";
      const res = await fetch(`${fixture.gw.httpUrl}${seed.path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: rng.chance(0.25) ? mutateText(rng, json) : json,
      });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status, `${seed.path} ${json.slice(0, 300)} → ${text.slice(0, 300)}`).toBeLessThan(500);
      if (i % 40 === 0) await controlMessage(n++);
    }
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);

    // 3. Config files through hot reload: broken bytes and mutated sections; the gateway keeps
    //    serving. gateway.*, logging and the workspace stay as they were (they would restart the
    //    gateway or write outside the test's dirs, which is not what this lane checks).
    const configFile = path.join(fixture.stateDir, "openclaw.json");
    for (let i = 0; i < 12; i += 1) {
      const mutated: Record<string, any> = { ...fixture.config };
      for (const section of ["agents", "models", "session", "messages", "tools"]) {
        if (rng.chance(0.4)) mutated[section] = mutateValue(rng, fixture.config[section] ?? {});
      }
      if (mutated.agents && typeof mutated.agents === "object" && mutated.agents.defaults && typeof mutated.agents.defaults === "object") {
        mutated.agents = { ...mutated.agents, defaults: { ...mutated.agents.defaults, workspace: fixture.config.agents.defaults.workspace } };
      }
      const text = JSON.stringify(mutated);
      fs.writeFileSync(`${configFile}.tmp`, rng.chance(0.3) ? mutateText(rng, text) : text);
      fs.renameSync(`${configFile}.tmp`, configFile);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await fixture.rpc.request("health", {})).ok).toBe(true);
    }
    fs.writeFileSync(`${configFile}.tmp`, JSON.stringify(fixture.config));
    fs.renameSync(`${configFile}.tmp`, configFile);
    // The restored config is in force once a fresh session is answered again.
    for (let attempt = 0; ; attempt += 1) {
      const res = await fixture.rpc.request("chat.send", { sessionKey: `agent:main:fuzz-restored-${attempt}`, message: "back to normal?", idempotencyKey: `restored-${attempt}` });
      const waited = res.ok ? await fixture.rpc.request("agent.wait", { runId: `restored-${attempt}`, timeoutMs: 10_000 }, 15_000) : undefined;
      if (waited?.payload.status === "ok") break;
      if (attempt >= 20) throw new Error(`the restored config never took effect: ${JSON.stringify(waited?.payload ?? res.error)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    // 4. Transcript lines: a session's transcript gets mutated lines appended behind the store's back.
    const probe = await fixture.rpc.request("chat.send", { sessionKey: "agent:main:fuzz-transcript", message: "first", idempotencyKey: "tr-1" });
    expect(probe.ok).toBe(true);
    expect((await fixture.rpc.request("agent.wait", { runId: "tr-1", timeoutMs: 20_000 }, 25_000)).payload.status).toBe("ok");
    const before = new Set(transcriptFiles(fixture.stateDir));
    const file = [...before].find((f) => fs.readFileSync(f, "utf8").includes('"first"'))!;
    const sample = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (let i = 0; i < 60; i += 1) {
      const line = JSON.stringify(mutateValue(rng, rng.pick(sample))) ?? "null";
      fs.appendFileSync(file, `${rng.chance(0.2) ? mutateText(rng, line) : line}\n`);
    }
    const after = await fixture.rpc.request("chat.send", { sessionKey: "agent:main:fuzz-transcript", message: "after the junk", idempotencyKey: "tr-2" });
    expect(after.ok, JSON.stringify(after.error)).toBe(true);
    expect((await fixture.rpc.request("agent.wait", { runId: "tr-2", timeoutMs: 20_000 }, 25_000)).payload.status).toBe("ok");
    expect((await fixture.rpc.request("chat.history", { sessionKey: "agent:main:fuzz-transcript" })).ok).toBe(true);
    await controlMessage(n++);

    // The process is up, healthy, and the control session holds every acknowledged message.
    expect(fixture.gw.proc.exitCode).toBeNull();
    expect((await fixture.rpc.request("health", {})).ok).toBe(true);
    // A control turn that met a broken config ends in error; its message is kept all the same.
    for (let i = 0; i < n; i += 1)
      expect(["ok", "error"]).toContain((await fixture.rpc.request("agent.wait", { runId: `control-${i}`, timeoutMs: 20_000 }, 25_000)).payload.status);
    const history = await fixture.rpc.request("chat.history", { sessionKey: CONTROL, limit: 1000 });
    const texts = JSON.stringify(history.payload.messages);
    for (const text of acked) expect(texts).toContain(text);
  }, 120_000);
});

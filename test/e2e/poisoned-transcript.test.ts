import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import type { GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, makeAgentState, removeFastTempDirs, requestMessages, startOn, transcriptFiles } from "../helpers/reliability.js";
import { Rpc } from "../helpers/rpc.js";
import { openOperator } from "../helpers/ws-client.js";

/**
 * One malformed transcript line must not break a session for good: it is skipped with a warning
 * when the transcript loads, and later turns neither fail nor append errors.
 */
const TOKEN = "poisoned-token";
const KEY = "agent:main:main";
let server: FakeModelServer;
let gw: GatewayProcess | undefined;
/** Every gateway a test started: all are stopped before their state dirs are removed. */
const started: GatewayProcess[] = [];

async function start(stateDir: string): Promise<GatewayProcess> {
  const gateway = await startOn(stateDir, TOKEN);
  started.push(gateway);
  return gateway;
}

afterAll(async () => {
  await Promise.all(started.map((gateway) => gateway.stop()));
  await server?.close();
  removeFastTempDirs();
});

async function turn(rpc: Rpc, text: string, id: string): Promise<void> {
  server.enqueue({ text });
  const res = await rpc.request("agent", { sessionKey: KEY, message: `ask ${id}`, idempotencyKey: id });
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  const waited = await rpc.request("agent.wait", { runId: id, timeoutMs: 10_000 });
  expect(waited.payload.status, JSON.stringify(waited.payload)).toBe("ok");
}

describe("a poisoned transcript line", () => {
  it("is skipped on load; the session keeps answering and its history stays clean", async () => {
    server = await startFakeModelServer();
    const stateDir = makeAgentState(server);
    gw = await start(stateDir);
    let rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
    await turn(rpc, "before", "p-1");
    rpc.sock.close();
    await gw.stop();

    const [file] = transcriptFiles(stateDir);
    fs.appendFileSync(
      file!,
      `${JSON.stringify({ type: "message", id: "bad00001", parentId: null, timestamp: new Date().toISOString(), message: { role: "assistant", content: 7 } })}\n`,
    );

    gw = await start(stateDir);
    rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
    await turn(rpc, "after", "p-2");
    await turn(rpc, "still fine", "p-3");
    const sent = requestMessages(chatRequests(server).at(-1)!).filter((m) => m.role !== "system");
    expect(sent.map((m) => m.text)).toEqual(["ask p-1", "before", "ask p-2", "after", "ask p-3"]);
    const lines = fs
      .readFileSync(file!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.message?.errorMessage)).toEqual([]);
    const log = fs.readFileSync(`${stateDir}/logs/gateway.log`, "utf8");
    expect(log).toMatch(/assistant message whose content is neither text nor a list of blocks; skipped/);
    rpc.sock.close();
  });
});

describe("a transcript path taken by a directory", () => {
  it("is moved aside with a warning; the session starts a fresh transcript and answers", async () => {
    server ??= await startFakeModelServer();
    const stateDir = makeAgentState(server);
    gw = await start(stateDir);
    const rpc = new Rpc((await openOperator(gw.url, TOKEN)).sock);
    await turn(rpc, "before", "d-1");

    const [file] = transcriptFiles(stateDir);
    fs.rmSync(file!);
    fs.mkdirSync(file!);
    fs.writeFileSync(`${file}/inside.txt`, "whatever was put here");

    await turn(rpc, "after", "d-2");
    await turn(rpc, "still fine", "d-3");
    expect(fs.statSync(file!).isFile()).toBe(true);
    const lines = fs
      .readFileSync(file!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].type).toBe("session");
    expect(lines.filter((l) => l.type === "message").map((l) => l.message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const aside = fs.readdirSync(`${stateDir}/agents/main/sessions`).filter((n) => n.includes(".corrupt."));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(`${stateDir}/agents/main/sessions/${aside[0]}/inside.txt`, "utf8")).toBe("whatever was put here");
    const log = fs.readFileSync(`${stateDir}/logs/gateway.log`, "utf8");
    expect(log).toMatch(/was not a file; moved it aside as .*\.corrupt\..* and started a fresh transcript/);
    rpc.sock.close();
    await gw.stop();
    gw = undefined;
  });
});

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/** `traces.search` and `openclaw traces search`: runs found by the words of their messages, tool calls and replies. */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

async function run(sessionKey: string, message: string): Promise<string> {
  const runId = randomUUID();
  await sock.request("chat.send", { sessionKey, message, idempotencyKey: runId });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final", 20_000);
  return runId;
}

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
  fs.writeFileSync(path.join(stateDir, "workspace", "rota.txt"), "Alice is on call\n");
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(model, stateDir) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

describe("trace search", () => {
  it("finds runs by their tool calls and replies, filtered by session, over the method and the CLI", async () => {
    model.enqueue({ toolCalls: [{ name: "read", arguments: { path: "rota.txt" } }] }, { text: "Alice is on call this week." });
    const rota = await run("ops", "who is on call?");
    model.enqueue({ text: "The capital of France is Paris." });
    const paris = await run("trivia", "capital of France?");

    const byTool = await sock.request("traces.search", { query: "rota.txt" });
    expect(byTool.ok, JSON.stringify(byTool.error)).toBe(true);
    expect(byTool.payload.results).toEqual([expect.objectContaining({ runId: rota, sessionKey: "agent:main:ops", toolCalls: 1, snippet: expect.stringContaining("rota.txt") })]);
    expect((await sock.request("traces.search", { query: "paris" })).payload.results.map((r: { runId: string }) => r.runId)).toEqual([paris]);
    expect((await sock.request("traces.search", { query: "paris", sessionKey: "ops" })).payload.results).toEqual([]);
    const empty = await sock.request("traces.search", { query: "?!" });
    expect(empty.error.message).toMatch(/^query has no word to search for/);

    const env = { OPENCLAW_STATE_DIR: gw.stateDir };
    const cli = await runCli(["traces", "search", "alice", "call"], env);
    expect(cli.code, cli.output).toBe(0);
    expect(cli.output).toMatch(new RegExp(`^STARTED +RUN .*\\n.*${rota} +ok .*\\n {4}.*Alice is on call`));
    const json = await runCli(["traces", "search", "capital", "--session", "trivia", "--json"], env);
    expect(JSON.parse(json.output).results.map((r: { runId: string }) => r.runId)).toEqual([paris]);
    const none = await runCli(["traces", "search", "zebra"], env);
    expect(none.output).toBe("No traces match.\n");
  });
});

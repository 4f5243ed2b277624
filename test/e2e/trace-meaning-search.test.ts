import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { eventually } from "../helpers/chat-session.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * Searching traces by meaning through a real gateway: every trace embedded in the background with
 * memory.search's provider (the fake model server's /v1/embeddings, which puts synonyms near each
 * other), found by a query that shares no word with it, over the method and the CLI.
 */

let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

const embeddingRequests = () => model.requests.filter((r) => r.path === "/v1/embeddings");

async function run(message: string, reply: string): Promise<string> {
  model.enqueue({ text: reply });
  const runId = randomUUID();
  await sock.request("chat.send", { sessionKey: "meaning", message, idempotencyKey: runId });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === runId && f.payload.state === "final", 20_000);
  return runId;
}

function config(stateDir: string, embeddings: boolean): string {
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${model.url}/v1`, apiKey: "sk-fake-embed" } } };
  return fakeModelConfig(model, stateDir, { memory, diagnostics: { traces: { search: { embeddings } } } });
}

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config(stateDir, true) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

describe("searching traces by meaning", () => {
  it("embeds each trace in the background and finds it by a query that shares no word with it", async () => {
    const car = await run("my sedan will not start this morning", "Check the battery of the automobile first.");
    const coffee = await run("which espresso beans should I buy?", "A medium roast makes a good latte.");
    await eventually(async () => {
      const res = await sock.request("traces.search", { query: "vehicle trouble", mode: "meaning" });
      expect(res.ok, JSON.stringify(res.error)).toBe(true);
      expect(res.payload.coverage).toEqual({ embedded: 2, traces: 2 });
    }, 20_000);
    // The embedding requests carry the traces' text: the message and the reply.
    expect(embeddingRequests().some((r) => JSON.stringify(r.body).includes("Check the battery of the automobile first."))).toBe(true);

    const byMeaning = await sock.request("traces.search", { query: "vehicle trouble", mode: "meaning" });
    expect(byMeaning.payload.results.map((r: { runId: string }) => r.runId)).toEqual([car, coffee]);
    expect(byMeaning.payload.results[0]).toMatchObject({ sessionKey: "agent:main:meaning", outcome: "ok", snippet: expect.stringContaining("sedan") });
    expect(byMeaning.payload.results[0].score).toBeGreaterThan(byMeaning.payload.results[1].score);
    // The words alone find nothing: neither trace says "vehicle".
    expect((await sock.request("traces.search", { query: "vehicle" })).payload.results).toEqual([]);
    const cappuccino = await sock.request("traces.search", { query: "cappuccino", mode: "meaning", limit: 1 });
    expect(cappuccino.payload.results.map((r: { runId: string }) => r.runId)).toEqual([coffee]);
    // minScore leaves out what scores below it: between the two scores, only the car trace is left.
    const [carScore, coffeeScore] = byMeaning.payload.results.map((r: { score: number }) => r.score);
    const between = (carScore + coffeeScore) / 2;
    const close = await sock.request("traces.search", { query: "vehicle trouble", mode: "meaning", minScore: between });
    expect(close.payload.results.map((r: { runId: string }) => r.runId)).toEqual([car]);
    const wordsWithScore = await sock.request("traces.search", { query: "sedan", minScore: 0.5 });
    expect(wordsWithScore.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringContaining('minScore is for mode: "meaning"') });

    const env = { OPENCLAW_STATE_DIR: gw.stateDir };
    const cli = await runCli(["traces", "search", "--meaning", "vehicle", "trouble"], env);
    expect(cli.code, cli.output).toBe(0);
    expect(cli.output).toMatch(new RegExp(`^STARTED +RUN .*\\n.*${car} +ok .*\\n {4}.*sedan`));
    expect(cli.output).toContain("2 of 2 traces have a vector");
    const json = await runCli(["traces", "search", "--meaning", "cappuccino", "--limit", "1", "--json"], env);
    expect(JSON.parse(json.output)).toMatchObject({ results: [{ runId: coffee }], coverage: { embedded: 2, traces: 2 } });
    const closeCli = await runCli(["traces", "search", "--meaning", "vehicle", "trouble", "--min-score", String(between), "--json"], env);
    expect(JSON.parse(closeCli.output).results.map((r: { runId: string }) => r.runId)).toEqual([car]);
    const badScore = await runCli(["traces", "search", "--meaning", "vehicle", "--min-score", "2"], env);
    expect(badScore.code).toBe(1);
    expect(badScore.output).toContain('--min-score: expected a number from 0 to 1, got "2"');
  });

  it("off, meaning search is refused with what to set, and no trace is embedded", async () => {
    sock.close();
    await gw.stop();
    const stateDir = makeTempDir();
    gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config(stateDir, false) } });
    ({ sock } = await openOperator(gw.url, gw.token));
    const before = embeddingRequests().length;
    await run("my sedan will not start", "Look at the starter motor.");
    // Written (the word index has it): an embedding, were it on, would start in the same step.
    await eventually(async () => expect((await sock.request("traces.search", { query: "sedan" })).payload.results).toHaveLength(1), 10_000);
    const refused = await sock.request("traces.search", { query: "vehicle", mode: "meaning" });
    expect(refused.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringContaining("set diagnostics.traces.search.embeddings: true") });
    const cli = await runCli(["traces", "search", "--meaning", "vehicle"], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(cli.code).toBe(1);
    expect(cli.output).toContain("meaning search is off");
    // Memory indexes its files with the same provider; no trace text was sent.
    expect(
      embeddingRequests()
        .slice(before)
        .some((r) => JSON.stringify(r.body).includes("starter motor")),
    ).toBe(false);
  });
});

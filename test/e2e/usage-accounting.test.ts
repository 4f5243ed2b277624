import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

/**
 * Token and cost accounting: each turn's usage lands on the session row (with the estimated cost
 * from the answering model's `cost` config) and in the usage reports, per day, agent and model.
 */
let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  const provider = (models: unknown[]) => ({ baseUrl: `${server.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models });
  const config = {
    agents: {
      defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "priced/p-model" } },
      entries: { main: {}, helper: { model: "free/f-model" } },
    },
    models: {
      providers: {
        priced: provider([{ id: "p-model", contextWindow: 100000, cost: { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 4 } }]),
        free: provider([{ id: "f-model", contextWindow: 50000 }]),
      },
    },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

async function turn(sessionKey: string, usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number }): Promise<void> {
  server.enqueue({ text: "answer", usage });
  const key = randomUUID();
  await sock.request("chat.send", { sessionKey, message: "question", idempotencyKey: key });
  const end = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error"].includes(f.payload.state), 15_000);
  expect(end.payload.state, end.payload.errorMessage).toBe("final");
  // The row is written once the run's transcript is durable, just after the final event.
  await sock.request("agent.wait", { runId: key, timeoutMs: 10_000 });
}

const row = async (key: string) => (await sock.request("sessions.describe", { key })).payload.session;

describe("token and cost accounting", () => {
  it("adds each turn's tokens, cache split and priced cost to the session row", async () => {
    // The OpenAI wire reports cached prompt tokens, never cache writes.
    await turn("agent:main:billing", { input: 1000, output: 100, cacheRead: 500 });
    await turn("agent:main:billing", { input: 2000, output: 300 });
    const billing = await row("agent:main:billing");
    expect(billing).toMatchObject({ inputTokens: 3500, outputTokens: 400, cacheRead: 500, cacheWrite: 0, modelProvider: "priced", model: "p-model", contextTokens: 100000 });
    // (1000×2 + 100×10 + 500×0.5) + (2000×2 + 300×10) per million = 3250 + 7000.
    expect(billing.estimatedCostUsd).toBeCloseTo(0.01025, 10);

    await turn("agent:helper:notes", { input: 400, output: 40 });
    const notes = await row("agent:helper:notes");
    expect(notes).toMatchObject({ inputTokens: 400, outputTokens: 40, model: "f-model", contextTokens: 50000 });
    expect(notes.estimatedCostUsd).toBeUndefined();

    const reset = await sock.request("sessions.reset", { key: "agent:main:billing" });
    expect(reset.payload.entry).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    expect(reset.payload.entry.estimatedCostUsd).toBeUndefined();
  });

  it("usage.cost sums every call per day, agent and model — reset sessions included — and prices only priced models", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const all = (await sock.request("usage.cost", { agentScope: "all", days: 7 })).payload;
    expect(all).toMatchObject({ endDate: today, days: 7 });
    expect(all.totals).toMatchObject({ input: 3400, output: 440, cacheRead: 500, cacheWrite: 0, totalTokens: 4340, calls: 3, missingCostEntries: 1 });
    expect(all.totals.totalCost).toBeCloseTo(0.01025, 10);
    expect(all.daily).toEqual([expect.objectContaining({ date: today, calls: 3 })]);
    expect(all.byAgent).toEqual(
      expect.arrayContaining([expect.objectContaining({ agentId: "main", calls: 2 }), expect.objectContaining({ agentId: "helper", calls: 1, totalCost: 0 })]),
    );
    expect(all.byModel).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ provider: "priced", model: "p-model", input: 3000 }),
        expect.objectContaining({ provider: "free", model: "f-model", missingCostEntries: 1 }),
      ]),
    );
    const helperOnly = (await sock.request("usage.cost", { agentId: "helper" })).payload;
    expect(helperOnly.totals).toMatchObject({ calls: 1, input: 400 });
    expect((await sock.request("usage.cost", { startDate: "2020-01-01", endDate: "2020-01-31", agentScope: "all" })).payload.totals.calls).toBe(0);
    expect((await sock.request("usage.cost", { startDate: "2020-02-01", endDate: "2020-01-01" })).error.message).toBe("startDate must not be after endDate");
    expect((await sock.request("usage.cost", { agentScope: "all", agentId: "main" })).error.message).toBe("agentScope=all cannot be combined with agentId");

    const status = (await sock.request("usage.status", {})).payload;
    expect(status).toMatchObject({ date: today, totals: { calls: 3 } });
  });

  it("sessions.usage lists sessions by their calls, newest first, and narrows to one key", async () => {
    const listed = (await sock.request("sessions.usage", { agentScope: "all" })).payload;
    expect(listed.sessions.map((s: any) => s.key)).toEqual(["agent:helper:notes", "agent:main:billing"]);
    expect(listed.sessions[1].usage).toMatchObject({ calls: 2, input: 3000 });
    const one = (await sock.request("sessions.usage", { key: "billing" })).payload;
    expect(one.sessions).toHaveLength(1);
    expect(one.totals).toMatchObject({ calls: 2, output: 400 });
  });

  it("/usage and /context answer from the session row", async () => {
    await turn("agent:main:talk", { input: 1500, output: 50 });
    const ask = async (message: string) => {
      const key = randomUUID();
      const res = await sock.request("chat.send", { sessionKey: "agent:main:talk", message, idempotencyKey: key });
      expect(res.payload).toMatchObject({ status: "started", command: message.slice(1).split(" ")[0] });
      return (await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key)).payload.message.content[0].text as string;
    };
    expect(await ask("/usage cost")).toBe(
      "Usage · agent:main:talk\nTokens: 1.5k in / 50 out · cache 0 read / 0 write\nCost: $0.0035 (estimated from the model's configured price)",
    );
    expect(await ask("/usage full")).toBe("Usage footer: full.");
    expect((await row("agent:main:talk")).responseUsage).toBe("full");
    // The next reply to a chat.send carries the turn's tokens and its estimated cost at the model's price.
    server.enqueue({ text: "answer", usage: { input: 1500, output: 50, cacheRead: 200 } });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: "agent:main:talk", message: "question", idempotencyKey: key });
    const final = await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 15_000);
    expect(final.payload.message.content[0].text).toBe("answer\nUsage: 1.5k in / 50 out · cache 200 cached / 0 new · est $0.0036");
    expect((await sock.request("sessions.patch", { key: "agent:main:talk", responseUsage: "sometimes" })).error.message).toBe('invalid responseUsage (use "off"|"tokens"|"full")');
    expect((await sock.request("sessions.patch", { key: "agent:main:talk", responseUsage: "on" })).ok).toBe(true);
    expect((await row("agent:main:talk")).responseUsage).toBe("tokens");
    expect(await ask("/context")).toMatch(/^Context · priced\/p-model\nIn use: [\d.k]+ of 100k tokens \(\d+%\)\nTranscript: 4 messages · compactions 0/);
  });
});

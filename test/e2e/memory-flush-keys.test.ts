import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSummaryReply, isSummaryRequest, lastUserText, startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * The silent memory-flush turn before a compaction uses the same keys and cooldowns as the
 * session's turns: a key the provider rate-limited during the flush rests for the summary and the
 * turns after it too.
 */
const KEY_A = "sk-flush-aaaa-111111";
const KEY_B = "sk-flush-bbbb-222222";
const LONG_REPLY = "Long answer. ".repeat(920);
let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

function gatewayConfig(stateDir: string): string {
  const config = JSON.parse(fakeModelConfig(server, stateDir));
  delete config.models.providers.fake.apiKey;
  config.models.providers.fake.models = [
    { id: "fake-model", contextWindow: 20_000, maxTokens: 1024 },
    { id: "flush-model", contextWindow: 20_000, maxTokens: 1024 },
  ];
  config.agents.defaults.skipBootstrap = true;
  return JSON.stringify(config);
}

const keyOf = (r: RecordedRequest) => String(r.headers.authorization ?? "");
const isFlush = (r: RecordedRequest) => !isSummaryRequest(r) && lastUserText(r).startsWith("Pre-compaction memory flush.");

async function turn(session: string, text: string): Promise<Frame> {
  const key = randomUUID();
  const ack = await sock.request("chat.send", { sessionKey: session, message: text, idempotencyKey: key });
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  return sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error"].includes(f.payload.state), 15_000);
}

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  gw = await startGateway({ stateDir, env: { FAKE_API_KEYS: `${KEY_A},${KEY_B}` }, configFile: { name: "openclaw.json", content: gatewayConfig(stateDir) } });
  sock = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

describe("memory flush and auth profiles", () => {
  it("a key rate-limited during the flush is not used by the summary or the next turn", async () => {
    const session = "agent:main:flush-keys";
    let limitedKey: string | undefined;
    server.setResponder((request) => {
      if (isSummaryRequest(request)) return fakeSummaryReply(request);
      if (isFlush(request) && limitedKey === undefined) {
        limitedKey = keyOf(request);
        return { status: 429, body: { error: { message: "Rate limit reached", type: "rate_limit_error" } } };
      }
      if (isFlush(request)) return { text: "NO_REPLY" };
      return { text: LONG_REPLY };
    });
    for (let turns = 1; limitedKey === undefined && turns <= 10; turns++) {
      expect((await turn(session, `Question ${turns}`)).payload.state).toBe("final");
    }
    expect(limitedKey, "no memory flush ran").toBeDefined();
    await sock.waitFor((f) => f.event === "agent" && f.payload.sessionKey === session && f.payload.stream === "compaction" && f.payload.data.phase === "end", 15_000);
    expect((await turn(session, "After the compaction")).payload.state).toBe("final");

    const afterLimit = server.requests.slice(server.requests.findIndex((r) => isFlush(r)) + 1).filter((r) => r.path.endsWith("/chat/completions"));
    const summary = afterLimit.filter(isSummaryRequest);
    expect(summary.length).toBeGreaterThan(0);
    expect(afterLimit.filter((r) => !isFlush(r)).length).toBeGreaterThanOrEqual(2);
    // Every request after the 429 (the flush's retry, the summary, the next turn) used the other key.
    expect(afterLimit.map(keyOf)).not.toContain(limitedKey);
  });

  it("memoryFlush.model runs the flush on its own model; the turns and the summary stay on the session's", async () => {
    const session = "agent:main:flush-model";
    const { payload: snap } = await sock.request("config.get", {});
    const raw = JSON.stringify({ agents: { defaults: { compaction: { memoryFlush: { model: "fake/flush-model" } } } } });
    expect((await sock.request("config.patch", { raw, baseHash: snap.hash })).payload).toMatchObject({ applied: true });
    server.setResponder((request) => {
      if (isSummaryRequest(request)) return fakeSummaryReply(request);
      if (isFlush(request)) return { text: "NO_REPLY" };
      return { text: LONG_REPLY };
    });
    const before = server.requests.length;
    for (let turns = 1; !server.requests.slice(before).some(isFlush) && turns <= 10; turns++) {
      expect((await turn(session, `Question ${turns}`)).payload.state).toBe("final");
    }
    const requests = server.requests.slice(before).filter((r) => r.path.endsWith("/chat/completions"));
    const modelOf = (r: RecordedRequest) => (r.body as { model: string }).model;
    expect(requests.filter(isFlush).map(modelOf)).toEqual(["flush-model"]);
    expect(new Set(requests.filter((r) => !isFlush(r)).map(modelOf))).toEqual(new Set(["fake-model"]));
  });
});

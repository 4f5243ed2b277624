import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSummaryReply, isSummaryRequest, startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { askAndWait } from "../helpers/chat-session.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * A summary is a model call like a turn's: it finds its key where a turn does (docs/models.md,
 * "Where keys come from") — here only `<P>_API_KEYS`, no `<P>_API_KEY` and no apiKey in the
 * config — and a key that rests is not tried first.
 */
const KEY_A = "sk-keys-list-aaaa-1111";
const KEY_B = "sk-keys-list-bbbb-2222";
let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;

beforeAll(async () => {
  model = await startFakeModelServer();
  const stateDir = makeTempDir();
  const config = {
    agents: { defaults: { workspace: path.join(stateDir, "ws"), model: { primary: "fake/fake-model" }, skipBootstrap: true } },
    models: { providers: { fake: { baseUrl: `${model.url}/v1`, api: "openai-completions", models: [{ id: "fake-model", contextWindow: 20_000, maxTokens: 1024 }] } } },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) }, env: { FAKE_API_KEYS: `${KEY_A},${KEY_B}` } });
  sock = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await model?.close();
});

describe("compaction's model call", () => {
  it("uses the keys a turn uses: a list in <P>_API_KEYS, the resting one skipped", async () => {
    const session = "agent:main:keys-list";
    model.setResponder((request) => (isSummaryRequest(request) ? fakeSummaryReply(request) : { text: "Long answer. ".repeat(920) }));
    // The first key is refused once: it rests, and the second answers the turn.
    model.enqueue({ status: 401 });
    for (let i = 1; i <= 4; i += 1) expect((await askAndWait(sock, session, `Fact number ${i}`)).payload.state).toBe("final");
    const done = await sock.request("sessions.compact", { key: session }, 15_000);
    expect(done.payload.reason).toBeUndefined();
    expect(done.payload).toMatchObject({ ok: true, compacted: true, compactionCount: 1 });
    const summary = model.requests.find(isSummaryRequest)!;
    expect(summary.headers.authorization).toBe(`Bearer ${KEY_B}`);
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionStore } from "../../src/sessions/store/index.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

const KEY = "agent:main:compacted";
let server: FakeModelServer;
let gw: GatewayProcess;

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  // A transcript as a compaction leaves it: old turns, then a summary that stands for them.
  const store = new SessionStore(stateDir);
  store.ensure(KEY);
  store.appendMessages(KEY, null, [
    { role: "user", content: "an old question nobody should see again", timestamp: 1 },
    { role: "assistant", content: [{ type: "text", text: "an old answer" }], timestamp: 2 },
  ]);
  store.appendEntries(KEY, null, [{ type: "compaction", summary: "The user picked blue for the logo.", tokensBefore: 1234 }]);
  store.appendMessages(KEY, null, [
    { role: "user", content: "and the font?", timestamp: 3 },
    { role: "assistant", content: [{ type: "text", text: "Serif." }], timestamp: 4 },
  ]);
  store.close();
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir) } });
});
afterAll(async () => {
  await gw?.stop();
  await server?.close();
});

describe("a compacted session", () => {
  it("sends the summary first, then only the messages after it", async () => {
    const { sock } = await openOperator(gw.url, gw.token);
    server.enqueue({ text: "Noted." });
    const key = randomUUID();
    await sock.request("chat.send", { sessionKey: KEY, message: "what did we pick?", idempotencyKey: key });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final");
    const request = server.requests.find((r) => r.path.endsWith("/chat/completions"))!;
    const sent = (request.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role !== "system");
    const texts = sent.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
    expect(texts[0]).toContain("The user picked blue for the logo.");
    expect(texts.slice(1)).toEqual(["and the font?", "Serif.", "what did we pick?"]);
    expect(texts.join("\n")).not.toContain("an old question");
    sock.close();
  });
});

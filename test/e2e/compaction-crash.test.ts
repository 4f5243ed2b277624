import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeSummaryReply, isSummaryRequest, startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";

/**
 * kill -9 during a compaction: the transcript loads afterwards with either the old history (the
 * summary was not written, or its line was torn) or the new one, never a broken one.
 */
const SESSION = "agent:main:crash-compaction";
const REPLY = "Answer. ".repeat(1000);
let server: FakeModelServer;
let stateDir: string;
let config: string;

beforeAll(async () => {
  server = await startFakeModelServer();
  stateDir = makeTempDir();
  const parsed = JSON.parse(fakeModelConfig(server, stateDir));
  parsed.models.providers.fake.models[0] = { id: "fake-model", contextWindow: 20_000, maxTokens: 1024 };
  parsed.agents.defaults.skipBootstrap = true;
  parsed.agents.defaults.compaction = { enabled: false };
  config = JSON.stringify(parsed);
});
afterAll(async () => {
  await server?.close();
});

async function boot(): Promise<{ gw: GatewayProcess; sock: TestSocket }> {
  const gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
  return { gw, sock: (await openOperator(gw.url, gw.token)).sock };
}

async function turn(sock: TestSocket, text: string) {
  const key = randomUUID();
  await sock.request("chat.send", { sessionKey: SESSION, message: text, idempotencyKey: key });
  return sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && ["final", "error"].includes(f.payload.state), 15_000);
}

function transcriptOf(sock: TestSocket) {
  return sock.request("sessions.describe", { key: SESSION }).then((r) => r.payload.session.sessionFile as string);
}

function lastConversationRequest(): string {
  const requests = server.requests.filter((r) => r.path.endsWith("/chat/completions") && !isSummaryRequest(r));
  return JSON.stringify(requests.at(-1)!.body.messages);
}

describe("kill -9 during compaction", () => {
  it("leaves a transcript that loads with the old history, then with the new one", async () => {
    let { gw, sock } = await boot();
    server.setResponder(() => ({ text: REPLY }));
    for (let i = 1; i <= 5; i += 1) expect((await turn(sock, `Fact ${i}: code K-${9000 + i}`)).payload.state).toBe("final");
    const file = await transcriptOf(sock);

    // 1. Killed while the summarizer is still writing: nothing was appended.
    server.setResponder((request) => (isSummaryRequest(request) ? { ...fakeSummaryReply(request), delayMs: 60_000 } : { text: REPLY }));
    void sock.request("sessions.compact", { key: SESSION }, 60_000).catch(() => {});
    await waitFor(() => server.requests.some(isSummaryRequest));
    gw.proc.kill("SIGKILL");
    await gw.exited;
    expect(fs.readFileSync(file, "utf8").includes('"type":"compaction"')).toBe(false);

    // 2. Killed in the middle of writing the compaction line: a torn last line.
    fs.appendFileSync(file, '{"type":"compaction","id":"deadbeef","parentId":null,"summary":"half a summ');
    ({ gw, sock } = await boot());
    server.reset();
    server.setResponder(() => ({ text: "Still here." }));
    expect((await turn(sock, "Do you remember fact 1?")).payload.state).toBe("final");
    expect(lastConversationRequest()).toContain("K-9001");
    expect(lastConversationRequest()).not.toContain("half a summ");

    // 3. Killed right after a compaction was written: the new history stands.
    server.setResponder((request) => (isSummaryRequest(request) ? fakeSummaryReply(request) : { text: REPLY }));
    const compacted = await sock.request("sessions.compact", { key: SESSION }, 15_000);
    expect(compacted.payload).toMatchObject({ compacted: true });
    gw.proc.kill("SIGKILL");
    await gw.exited;
    ({ gw, sock } = await boot());
    server.reset();
    server.setResponder(() => ({ text: "Fine." }));
    expect((await turn(sock, "And now?")).payload.state).toBe("final");
    expect(lastConversationRequest()).toContain("condensed");
    expect(lastConversationRequest()).toContain("K-9001");
    expect(lastConversationRequest()).not.toContain("Fact 1:");
    sock.close();
    await gw.stop();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

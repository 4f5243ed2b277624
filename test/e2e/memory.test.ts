import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from "../fakes/model-server.js";

let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;

const today = (() => {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
})();
const NOTE = "- remember: the deploy key rotates on Tuesdays";

beforeAll(async () => {
  server = await startFakeModelServer();
  stateDir = makeTempDir();
  const memory = { search: { provider: "fake", model: "fake-embedding", remote: { baseUrl: `${server.url}/v1`, apiKey: "sk-fake-embed" } } };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir, { memory }) } });
  ({ sock } = await openOperator(gw.url, gw.token));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

const chatRequests = (): RecordedRequest[] => server.requests.filter((r) => r.path === "/v1/chat/completions");

async function runTurn(sessionKey: string, message: string): Promise<void> {
  const key = randomUUID();
  await sock.request("chat.send", { sessionKey, message, idempotencyKey: key });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 20_000);
}

/** Polls memory.status (which never syncs by itself) until `done` holds; past 30 s, fails with what it saw and the gateway's log. */
async function waitForStatus(done: (status: Record<string, any>) => boolean): Promise<Record<string, any>> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await sock.request("memory.status", {});
    if (res.ok && done(res.payload)) return res.payload;
    if (Date.now() > deadline) throw new Error(`memory.status never settled: ${JSON.stringify(res)}\n--- gateway output ---\n${gw.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("memory end to end", () => {
  it("a note written with `write` is indexed by the watcher and found first by memory_search in a new session", async () => {
    // Open and sync the index first, so that what follows can only reach it through the watcher.
    await sock.request("memory.search", { query: "warm up" });
    const settled = await waitForStatus((s) => s.dirty === false && s.indexing === false);
    server.enqueue({ toolCalls: [{ name: "write", arguments: { path: `memory/${today}.md`, content: `# ${today}\n\n${NOTE}\n` } }] }, { text: "Noted." });
    await runTurn("memory-writer", "remember: the deploy key rotates on Tuesdays");
    const first = chatRequests()[0]!.body as { tools: { function: { name: string } }[]; messages: { role: string; content: string }[] };
    const toolNames = first.tools.map((t) => t.function.name);
    expect(toolNames).toEqual(expect.arrayContaining(["memory_search", "memory_get"]));
    expect(first.messages[0]!.content).toContain("## Memory Recall");
    expect(fs.readFileSync(path.join(stateDir, "workspace", "memory", `${today}.md`), "utf8")).toContain(NOTE);

    // The watcher (not a search) brings the note in: memory.status does not sync on its own.
    const status = await waitForStatus((s) => s.dirty === false && s.indexing === false && s.files === settled.files + 1);
    expect(status.lastSyncAt > settled.lastSyncAt).toBe(true);
    expect(status.embeddedChunks).toBe(status.chunks);
    expect(status).toMatchObject({ provider: "fake", vectorBackend: "sqlite-vec", dims: 256 });

    const before = chatRequests().length;
    server.enqueue({ toolCalls: [{ name: "memory_search", arguments: { query: "when does the deploy key rotate" } }] }, { text: "On Tuesdays." });
    await runTurn("memory-reader", "when does the deploy key rotate?");
    const followUp = chatRequests()[before + 1]!.body as { messages: { role: string; content: string }[] };
    const toolMessage = followUp.messages.find((m) => m.role === "tool")!;
    const answer = JSON.parse(toolMessage.content) as { results: { path: string; snippet: string; startLine: number }[]; mode: string };
    expect(answer.mode).toBe("hybrid");
    expect(answer.results[0]!.path).toBe(`memory/${today}.md`);
    expect(answer.results[0]!.snippet).toContain(NOTE);

    const rpc = await sock.request("memory.search", { query: "when does the deploy key rotate" });
    expect(rpc.payload.results[0]).toMatchObject({ path: `memory/${today}.md` });
  }, 60_000);

  it("memory_get reads the lines of a memory file and refuses anything else", async () => {
    const before = chatRequests().length;
    server.enqueue(
      {
        toolCalls: [
          { id: "get-1", name: "memory_get", arguments: { path: `memory/${today}.md`, from: 3, lines: 1 } },
          { id: "get-2", name: "memory_get", arguments: { path: "memory/nothing.md" } },
          { id: "get-3", name: "memory_get", arguments: { path: "AGENTS.md" } },
        ],
      },
      { text: "Read." },
    );
    await runTurn("memory-getter", "read the note");
    const followUp = chatRequests()[before + 1]!.body as { messages: { role: string; content: string; tool_call_id?: string }[] };
    const results = followUp.messages.filter((m) => m.role === "tool");
    expect(results.find((m) => m.tool_call_id === "get-1")!.content).toBe(NOTE);
    expect(JSON.parse(results.find((m) => m.tool_call_id === "get-2")!.content)).toMatchObject({ error: "FILE_NOT_FOUND" });
    expect(JSON.parse(results.find((m) => m.tool_call_id === "get-3")!.content)).toMatchObject({ error: "NOT_A_MEMORY_FILE" });
  }, 60_000);

  it("memory.* methods: an unknown agent or bad params are a clear error that changes nothing", async () => {
    const unknown = await sock.request("memory.status", { agentId: "nobody" });
    expect(unknown.ok).toBe(false);
    expect(unknown.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect(unknown.error.message).toContain('unknown agent "nobody"');
    const bad = await sock.request("memory.search", { query: 42 });
    expect(bad.ok).toBe(false);
    expect(bad.error.code).toBe("INVALID_REQUEST");
    const syntax = await sock.request("memory.search", { query: 'NEAR("deploy" AND OR *' });
    expect(syntax.ok).toBe(true);
    expect(syntax.payload.results[0].path).toBe(`memory/${today}.md`);
  }, 30_000);

  it("the first turn after /new is offered today's notes", async () => {
    const reset = await sock.request("chat.send", { sessionKey: "memory-reader", message: "/new", idempotencyKey: randomUUID() });
    expect(reset.ok).toBe(true);
    const before = chatRequests().length;
    server.enqueue({ text: "Fresh start." });
    await runTurn("memory-reader", "hello again");
    const request = chatRequests()[before]!.body as { messages: { role: string; content: string }[] };
    expect(request.messages[0]!.content).toContain("## Recent daily notes");
    expect(request.messages[0]!.content).toContain(NOTE);
    server.enqueue({ text: "Again." });
    await runTurn("memory-reader", "and again");
    const next = chatRequests()[before + 1]!.body as { messages: { role: string; content: string }[] };
    expect(next.messages[0]!.content).not.toContain("## Recent daily notes");

    // sessions.reset starts the session over as /new does: its first turn is offered the notes too.
    expect((await sock.request("sessions.reset", { key: "memory-reader" })).ok).toBe(true);
    server.enqueue({ text: "Reset." });
    await runTurn("memory-reader", "after the operator reset");
    const afterReset = chatRequests()[before + 2]!.body as { messages: { role: string; content: string }[] };
    expect(afterReset.messages[0]!.content).toContain("## Recent daily notes");
  }, 60_000);
});

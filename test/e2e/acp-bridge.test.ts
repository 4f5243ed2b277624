import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { initialize, spawnAcpBridge, type AcpIde } from "../helpers/acp-ide.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { CLI, cleanEnv, makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator } from "../helpers/ws-client.js";

let server: FakeModelServer;
let gw: GatewayProcess;
const ides: AcpIde[] = [];
const projectDir = makeTempDir("acp-project-");

beforeAll(async () => {
  server = await startFakeModelServer();
  const stateDir = makeTempDir();
  fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
  fs.writeFileSync(path.join(stateDir, "workspace", "notes.txt"), "hello from the notes\n");
  const config = fakeModelConfig(server, stateDir, { tools: { exec: { ask: "always" } } });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config } });
});
afterAll(async () => {
  await gw?.stop();
  await server?.close();
});
beforeEach(() => server.reset());
afterEach(async () => {
  await Promise.all(ides.splice(0).map((ide) => ide.close()));
});

function bridge(args: string[] = []): AcpIde {
  const ide = spawnAcpBridge(["--url", gw.url, ...args], { OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_STATE_DIR: gw.stateDir });
  ides.push(ide);
  return ide;
}

const newSession = (ide: AcpIde, extra: Partial<acp.NewSessionRequest> = {}) => ide.agent.request(acp.methods.agent.session.new, { cwd: projectDir, mcpServers: [], ...extra });
const prompt = (ide: AcpIde, sessionId: string, text: string) => ide.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
const modelCalls = () => server.requests.filter((r) => r.path.endsWith("/chat/completions"));
const lastUserText = (request: { body: any }) => {
  const user = request.body.messages.filter((m: any) => m.role === "user").at(-1);
  return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text ?? "").join("");
};

describe("openclaw acp as the IDE's agent", () => {
  it("initialize advertises what the bridge serves", async () => {
    const ide = bridge();
    const init = await initialize(ide);
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      mcpCapabilities: { http: false, sse: false },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    });
    expect(init.authMethods).toEqual([]);
    expect(init.agentInfo?.name).toBe("openclaw");
  });

  it("a prompt streams message chunks, a tool call with its result, and ends with end_turn", async () => {
    const ide = bridge();
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    server.enqueue({ toolCalls: [{ id: "call_read_1", name: "read", arguments: { path: "notes.txt" } }] }, { text: "The notes say hello.", chunkDelayMs: 5 });
    const result = await prompt(ide, sessionId, "what do my notes say?");
    expect(result.stopReason).toBe("end_turn");

    const mine = ide.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    const call = mine.find((u) => u.sessionUpdate === "tool_call") as acp.ToolCall & { sessionUpdate: string };
    expect(call).toMatchObject({ toolCallId: "call_read_1", kind: "read", title: "read: notes.txt", status: "in_progress", rawInput: { path: "notes.txt" } });
    const done = mine.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed") as any;
    expect(done.toolCallId).toBe("call_read_1");
    expect(JSON.stringify(done.content)).toContain("hello from the notes");
    expect(mine.indexOf(call as never)).toBeLessThan(mine.indexOf(done));
    expect(ide.textOf(sessionId)).toBe("The notes say hello.");
    expect(mine.filter((u) => u.sessionUpdate === "agent_message_chunk").length).toBeGreaterThan(0);

    // The prompt reached the model with the IDE's working directory in front of it.
    expect(lastUserText(modelCalls()[0]!)).toBe(`[Working directory: ${projectDir}]\n\nwhat do my notes say?`);
  });

  it("thinking streams as agent_thought_chunk; --no-prefix-cwd sends the prompt as typed", async () => {
    const ide = bridge(["--no-prefix-cwd"]);
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    server.enqueue({ thinking: "Let me consider the question.", text: "Forty-two." });
    expect((await prompt(ide, sessionId, "the answer?")).stopReason).toBe("end_turn");
    expect(ide.textOf(sessionId, "agent_thought_chunk")).toBe("Let me consider the question.");
    expect(ide.textOf(sessionId)).toBe("Forty-two.");
    expect(lastUserText(modelCalls()[0]!)).toBe("the answer?");
  });

  it("session/cancel ends the prompt as cancelled and aborts the gateway run", async () => {
    const ide = bridge();
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    server.enqueue({ text: "this reply takes far too long", delayMs: 60_000 });
    const pending = prompt(ide, sessionId, "slow one");
    while (modelCalls().length === 0) await new Promise((r) => setTimeout(r, 20));
    await ide.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await pending).stopReason).toBe("cancelled");

    // The gateway run was aborted too: the session answers the next prompt at once.
    server.enqueue({ text: "fresh answer" });
    expect((await prompt(ide, sessionId, "again")).stopReason).toBe("end_turn");
    expect(ide.textOf(sessionId)).toBe("fresh answer");
  });

  it("session/load in a new bridge replays the transcript; session/resume rebinds without replay; session/close forgets", async () => {
    const first = bridge();
    await initialize(first);
    const { sessionId } = await newSession(first);
    server.enqueue({ text: "Remembered: blue." });
    await prompt(first, sessionId, "remember blue");
    await first.close();

    const second = bridge();
    const init = await initialize(second);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: projectDir, mcpServers: [] });
    expect(second.textOf(sessionId, "user_message_chunk")).toContain("remember blue");
    expect(second.textOf(sessionId)).toBe("Remembered: blue.");
    const replayed = second.updates.length;

    await second.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: projectDir });
    expect(second.updates.length).toBe(replayed);
    server.enqueue({ text: "Still blue." });
    await prompt(second, sessionId, "which colour?");
    // The same gateway session: the model saw the earlier exchange.
    const messages = modelCalls()
      .at(-1)!
      .body.messages.map((m: any) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
    expect(messages.join("\n")).toContain("Remembered: blue.");

    // Closed: the bridge forgets the session (the gateway keeps it for a later load).
    await second.agent.request(acp.methods.agent.session.close, { sessionId });
    await expect(prompt(second, sessionId, "still there?")).rejects.toMatchObject({ message: expect.stringContaining("not open in this bridge") });
  });

  it("session/list pages through the gateway's sessions with a cursor", async () => {
    const ide = bridge();
    await initialize(ide);
    const opened: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { sessionId } = await newSession(ide);
      server.enqueue({ text: `ok ${i}` });
      await prompt(ide, sessionId, `hi ${i}`);
      opened.push(`agent:main:acp-bridge:${sessionId}`);
    }
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const page = await ide.agent.request(acp.methods.agent.session.list, { ...(cursor ? { cursor } : {}), _meta: { pageSize: 2 } });
      expect(page.sessions.length).toBeLessThanOrEqual(2);
      for (const s of page.sessions) {
        expect(s.cwd).toBeTruthy();
        seen.push(s.sessionId);
      }
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(seen.length);
    for (const key of opened) expect(seen).toContain(key);
    // A session this bridge opened carries the cwd the IDE gave it.
    const listed = await ide.agent.request(acp.methods.agent.session.list, { cwd: projectDir });
    expect(listed.sessions.map((s) => s.sessionId).sort()).toEqual([...opened].sort());

    await expect(ide.agent.request(acp.methods.agent.session.list, { cursor: "bm90LWEtY3Vyc29y" })).rejects.toMatchObject({ message: expect.stringContaining("cursor") });
  });

  it("an exec approval becomes session/request_permission and the IDE's answer resolves it", async () => {
    const ide = bridge();
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    ide.answerPermissions((request) => ({ outcome: { outcome: "selected", optionId: request.options.find((o) => o.kind === "allow_once")!.optionId } }));
    server.enqueue({ toolCalls: [{ id: "call_exec_1", name: "exec", arguments: { command: "echo approved-run" } }] }, { text: "Ran it." });
    expect((await prompt(ide, sessionId, "run echo")).stopReason).toBe("end_turn");

    expect(ide.permissionRequests).toHaveLength(1);
    const asked = ide.permissionRequests[0]!;
    expect(asked.sessionId).toBe(sessionId);
    expect(asked.toolCall).toMatchObject({ kind: "execute", title: "exec: echo approved-run" });
    expect(asked.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    const result = ide.updates.find(
      (n) => n.update.sessionUpdate === "tool_call_update" && (n.update as any).toolCallId === "call_exec_1" && (n.update as any).status !== "in_progress",
    );
    expect(JSON.stringify(result?.update)).toContain("approved-run");

    // A denial reaches the tool as a refusal.
    ide.answerPermissions((request) => ({ outcome: { outcome: "selected", optionId: request.options.find((o) => o.kind === "reject_once")!.optionId } }));
    server.enqueue({ toolCalls: [{ id: "call_exec_2", name: "exec", arguments: { command: "echo denied-run" } }] }, { text: "It was denied." });
    await prompt(ide, sessionId, "run it again");
    const denied = ide.updates.find(
      (n) => n.update.sessionUpdate === "tool_call_update" && (n.update as any).toolCallId === "call_exec_2" && (n.update as any).status === "failed",
    );
    expect(JSON.stringify(denied?.update)).toContain("denied");
  });

  it("refuses per-session MCP servers and prompts over 2 MB, with clear errors and nothing sent", async () => {
    const ide = bridge();
    await initialize(ide);
    await expect(newSession(ide, { mcpServers: [{ name: "fs", command: "mcp-fs", args: [], env: [] }] })).rejects.toMatchObject({
      message: expect.stringContaining("per-session MCP servers"),
    });
    const { sessionId } = await newSession(ide);
    const huge = "x".repeat(2 * 1024 * 1024 + 1);
    await expect(prompt(ide, sessionId, huge)).rejects.toMatchObject({ message: expect.stringContaining("2 MB") });
    expect(modelCalls()).toHaveLength(0);
    await expect(newSession(ide, { cwd: "relative/dir" })).rejects.toMatchObject({ message: expect.stringContaining("absolute") });
  });

  it("--session pins the gateway session; --require-existing refuses a key that does not exist", async () => {
    const pinned = bridge(["--session", "acp-pinned"]);
    await initialize(pinned);
    const { sessionId } = await newSession(pinned);
    server.enqueue({ text: "pinned reply" });
    await prompt(pinned, sessionId, "hello pinned");
    const listed = await pinned.agent.request(acp.methods.agent.session.list, {});
    expect(listed.sessions.map((s) => s.sessionId)).toContain("agent:main:acp-pinned");

    const strict = bridge(["--session", "acp-nobody-made-this", "--require-existing"]);
    await initialize(strict);
    await expect(newSession(strict)).rejects.toMatchObject({ message: expect.stringContaining("does not exist") });
    const existing = bridge(["--session", "acp-pinned", "--require-existing", "--reset-session"]);
    await initialize(existing);
    const reopened = await newSession(existing);
    await existing.agent.request(acp.methods.agent.session.load, { sessionId: reopened.sessionId, cwd: projectDir, mcpServers: [] });
    // Reset: the transcript starts over, so nothing is replayed.
    expect(existing.textOf(reopened.sessionId)).toBe("");
  });

  it("--provenance meta+receipt: the model reads a receipt and the transcript records the IDE as the source", async () => {
    const ide = bridge(["--provenance", "meta+receipt", "--no-prefix-cwd"]);
    await initialize(ide);
    const { sessionId } = await newSession(ide);
    server.enqueue({ text: "noted" });
    await prompt(ide, sessionId, "where am I from?");
    const seen = lastUserText(modelCalls()[0]!);
    expect(seen).toMatch(/^\[Source Receipt\]\n/);
    expect(seen).toContain(`acpSessionId=${sessionId}`);
    expect(seen.endsWith("[/Source Receipt]\n\nwhere am I from?")).toBe(true);

    const { sock } = await openOperator(gw.url, gw.token);
    const history = await sock.request("chat.history", { sessionKey: `acp-bridge:${sessionId}` });
    expect(history.payload.messages[0].provenance).toMatchObject({ kind: "external_user", sourceChannel: "acp", sourceTool: "openclaw_acp", originSessionId: sessionId });
    sock.close();

    // The gateway takes system provenance only from an admin.
    const writer = await openOperator(gw.url, gw.token, { scopes: ["operator.write"] });
    const refused = await writer.sock.request("chat.send", { sessionKey: "p", message: "hi", idempotencyKey: "prov-1", systemInputProvenance: { kind: "internal_system" } });
    expect(refused.error.message).toContain("system provenance fields require admin scope");
    writer.sock.close();
  });

  it("openclaw acp client without a command drives this bridge, with the bridge options passed on", async () => {
    server.enqueue({ text: "hi from the gateway" });
    const proc = spawn(process.execPath, [CLI, "acp", "client", "--url", gw.url, "--session", "acp-from-client", "--no-prefix-cwd", "--cwd", projectDir], {
      env: cleanEnv({ OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_STATE_DIR: gw.stateDir }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    proc.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    proc.stdin!.end("hello gateway\n");
    expect(await new Promise((resolve) => proc.on("exit", resolve))).toBe(0);
    expect(stdout).toContain("hi from the gateway");
    expect(lastUserText(modelCalls()[0]!)).toBe("hello gateway");
    const { sock } = await openOperator(gw.url, gw.token);
    const history = await sock.request("chat.history", { sessionKey: "acp-from-client" });
    expect(history.payload.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    sock.close();
  });
});

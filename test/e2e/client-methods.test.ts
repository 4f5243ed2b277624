import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";

let server: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let stateDir: string;

beforeAll(async () => {
  server = await startFakeModelServer();
  stateDir = makeTempDir();
  const skillDir = path.join(stateDir, "workspace", "skills", "summarize");
  fs.mkdirSync(skillDir, { recursive: true });
  fs.writeFileSync(path.join(skillDir, "SKILL.md"), "---\nname: summarize\ndescription: Use when asked to summarize.\n---\nSummarize.\n");
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(server, stateDir) } });
  ({ sock } = await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] }));
});
afterAll(async () => {
  sock?.close();
  await gw?.stop();
  await server?.close();
});

async function turn(sessionKey: string, message: string): Promise<void> {
  const key = randomUUID();
  await sock.request("chat.send", { sessionKey, message, idempotencyKey: key });
  await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 15_000);
}

describe("session reading methods", () => {
  it("sessions.get, sessions.preview, sessions.resolve and chat.message.get read one session's messages", async () => {
    server.enqueue({ text: "Paris is the capital." });
    await turn("geo", "What is the capital of France?");
    const got = await sock.request("sessions.get", { key: "geo", limit: 1 });
    expect(got.payload.messages).toHaveLength(1);
    expect(got.payload.messages[0].role).toBe("assistant");
    expect((await sock.request("sessions.get", { key: "nobody-here" })).payload).toEqual({ messages: [] });

    const preview = await sock.request("sessions.preview", { keys: ["geo", "nobody-here"], maxChars: 20 });
    expect(preview.payload.previews).toEqual([
      {
        key: "geo",
        status: "ok",
        items: [
          { role: "user", text: "What is the capit..." },
          { role: "assistant", text: "Paris is the capi..." },
        ],
      },
      { key: "nobody-here", status: "missing", items: [] },
    ]);

    await sock.request("sessions.patch", { key: "geo", label: "Geography" });
    const row = (await sock.request("sessions.describe", { key: "geo" })).payload.session;
    expect((await sock.request("sessions.resolve", { label: "Geography" })).payload).toEqual({ ok: true, key: "agent:main:geo", agentId: "main" });
    expect((await sock.request("sessions.resolve", { sessionId: row.sessionId })).payload).toMatchObject({ ok: true, key: "agent:main:geo" });
    expect((await sock.request("sessions.resolve", { key: "geo" })).payload).toMatchObject({ ok: true, key: "agent:main:geo" });
    expect((await sock.request("sessions.resolve", { label: "nothing", allowMissing: true })).payload).toEqual({ ok: false });
    expect((await sock.request("sessions.resolve", { label: "nothing" })).error.message).toBe('no session matches label "nothing"');
    expect((await sock.request("sessions.resolve", { key: "geo", label: "Geography" })).error.message).toBe("sessions.resolve needs exactly one of key, sessionId or label");

    const history = await sock.request("chat.history", { sessionKey: "geo" });
    const answer = history.payload.messages[1];
    expect(answer.__openclaw.id).toEqual(expect.any(String));
    const one = await sock.request("chat.message.get", { sessionKey: "geo", messageId: answer.__openclaw.id });
    expect(one.payload).toMatchObject({ ok: true, message: { role: "assistant", content: [{ type: "text", text: "Paris is the capital." }] } });
    expect((await sock.request("chat.message.get", { sessionKey: "geo", messageId: "deadbeef" })).payload).toEqual({ ok: false });
  });

  it("sessions.create makes a session with a label and model, adopts an existing key, and checks what it is given", async () => {
    const created = await sock.request("sessions.create", { key: "made", label: "Made here", model: "fake/fake-model", thinkingLevel: "low" });
    expect(created.payload).toMatchObject({ ok: true, key: "agent:main:made", entry: { label: "Made here", thinkingLevel: "low", model: "fake-model" } });
    const again = await sock.request("sessions.create", { key: "made" });
    expect(again.payload.sessionId).toBe(created.payload.sessionId);
    expect((await sock.request("sessions.create", { key: "other", label: "Made here" })).error.message).toBe('label "Made here" is already used by session agent:main:made');
    expect((await sock.request("sessions.create", { key: "x", model: "nope/none" })).error.code).toBe("INVALID_REQUEST");
    expect((await sock.request("sessions.create", { key: "y", parentSessionKey: "missing-parent" })).error.message).toBe("parent session not found: missing-parent");
    expect((await sock.request("sessions.create", { key: "z", bogus: true })).error.message).toMatch(/bogus/);
    server.enqueue({ text: "started with a message" });
    const withMessage = await sock.request("sessions.create", { key: "kickoff", message: "go", idempotencyKey: "kickoff-1" });
    expect(withMessage.payload).toMatchObject({ ok: true, runStarted: true, runId: "kickoff-1" });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === "kickoff-1" && f.payload.state === "final", 15_000);
  });

  it("sessions.create fork: true starts the new session with the parent's conversation; fork needs a parent", async () => {
    server.enqueue({ text: "Blue it is." });
    await turn("fork-parent", "my favourite colour is blue");
    const forked = await sock.request("sessions.create", { key: "fork-child", parentSessionKey: "fork-parent", fork: true });
    expect(forked.payload).toMatchObject({ ok: true, key: "agent:main:fork-child", fork: { forked: true, messages: 2 } });
    const child = await sock.request("chat.history", { sessionKey: "fork-child" });
    expect(child.payload.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    server.enqueue({ text: "Blue." });
    await turn("fork-child", "what is my favourite colour?");
    const request = server.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!;
    expect(JSON.stringify(request.body.messages)).toContain("my favourite colour is blue");
    expect((await sock.request("sessions.create", { key: "orphan", fork: true })).error.message).toBe(
      "fork needs parentSessionKey: the session whose conversation the new one starts with",
    );
  });
});

describe("session labels", () => {
  it("sessions.patch refuses a label another session of the agent holds, as sessions.create does, and changes nothing", async () => {
    await sock.request("sessions.create", { key: "label-holder", label: "Taken" });
    await sock.request("sessions.create", { key: "label-seeker", label: "Mine" });
    const res = await sock.request("sessions.patch", { key: "label-seeker", label: "Taken" });
    expect(res.error).toMatchObject({ code: "INVALID_REQUEST", message: 'label "Taken" is already used by session agent:main:label-holder' });
    expect((await sock.request("sessions.describe", { key: "label-seeker" })).payload.session.label).toBe("Mine");
    expect((await sock.request("sessions.resolve", { label: "Taken" })).payload).toEqual({ ok: true, key: "agent:main:label-holder", agentId: "main" });
    // A session keeps its own label when patched with it again.
    expect((await sock.request("sessions.patch", { key: "label-holder", label: "Taken" })).ok).toBe(true);
  });

  it("a label is stored trimmed; one with a control character is refused and changes nothing; empty, blank or null clears it", async () => {
    await sock.request("sessions.create", { key: "label-trim", label: "Before" });
    const label = async () => (await sock.request("sessions.describe", { key: "label-trim" })).payload.session.label;
    for (const bad of ["line\nbreak", "tab\there", "bell\u0007", "esc\u001b[31m", "nul\u0000", "del\u007f", "c1\u0085"]) {
      const res = await sock.request("sessions.patch", { key: "label-trim", label: bad });
      expect(res.error, JSON.stringify(bad)).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringMatching(/^label has a control character/) });
      expect(await label()).toBe("Before");
    }
    const created = await sock.request("sessions.create", { key: "label-bad-create", label: "x\ny" });
    expect(created.error).toMatchObject({ code: "INVALID_REQUEST", message: expect.stringMatching(/^label has a control character/) });
    expect((await sock.request("sessions.patch", { key: "label-trim", label: "  Spaced  " })).payload.entry.label).toBe("Spaced");
    expect((await sock.request("sessions.resolve", { label: "Spaced" })).payload.key).toBe("agent:main:label-trim");
    expect((await sock.request("sessions.resolve", { label: " Spaced\t" })).payload.key).toBe("agent:main:label-trim");
    expect((await sock.request("sessions.resolve", { label: "   " })).error).toMatchObject({ code: "INVALID_REQUEST", message: "label is empty: name the label to resolve" });
    for (const clearing of ["", "   ", null]) {
      await sock.request("sessions.patch", { key: "label-trim", label: "Set" });
      const res = await sock.request("sessions.patch", { key: "label-trim", label: clearing });
      expect(res.ok, JSON.stringify(clearing)).toBe(true);
      expect(await label(), JSON.stringify(clearing)).toBeUndefined();
    }
  });
});

describe("session settings", () => {
  it("sessions.patch with null clears reasoningLevel and sendPolicy; an unknown reasoningLevel is refused naming the choices and changes nothing", async () => {
    await sock.request("sessions.create", { key: "settings-clear" });
    const session = async () => (await sock.request("sessions.describe", { key: "settings-clear" })).payload.session;
    expect((await sock.request("sessions.patch", { key: "settings-clear", reasoningLevel: "stream", sendPolicy: "deny" })).ok).toBe(true);
    expect(await session()).toMatchObject({ reasoningLevel: "stream", sendPolicy: "deny" });
    const bad = await sock.request("sessions.patch", { key: "settings-clear", reasoningLevel: "loud" });
    expect(bad.error).toMatchObject({ code: "INVALID_REQUEST", message: 'invalid reasoningLevel "loud" (use "on", "off" or "stream")' });
    expect((await session()).reasoningLevel).toBe("stream");
    expect((await sock.request("sessions.patch", { key: "settings-clear", reasoningLevel: null, sendPolicy: null })).ok).toBe(true);
    const cleared = await session();
    expect(cleared.reasoningLevel).toBeUndefined();
    expect(cleared.sendPolicy).toBeUndefined();
  });
});

describe("/skill through chat.send", () => {
  it("runs a turn whose message tells the agent to use the skill", async () => {
    server.enqueue({ text: "summary done" });
    const key = randomUUID();
    const res = await sock.request("chat.send", { sessionKey: "skills", message: "/skill summarize the meeting notes", idempotencyKey: key });
    expect(res.payload).toEqual({ runId: key, status: "started" });
    await sock.waitFor((f) => f.event === "chat" && f.payload.runId === key && f.payload.state === "final", 15_000);
    const history = (await sock.request("chat.history", { sessionKey: "skills" })).payload.messages;
    expect(history[0].content[0].text).toMatch(/^Use the skill "summarize": read .*SKILL\.md first and follow it\.\n\nthe meeting notes$/);
  });
});

describe("catalogs and identity", () => {
  it("models.list takes the params current clients send and refuses what is wrong", async () => {
    expect((await sock.request("models.list", { agentId: "main", includeDetails: true, view: "all" })).payload.models[0]).toMatchObject({ id: "fake-model", provider: "fake" });
    expect((await sock.request("models.list", { provider: "other" })).payload.models).toEqual([]);
    expect((await sock.request("models.list", { agentId: "ghost" })).error.message).toBe('unknown agent "ghost"');
    expect((await sock.request("models.list", { preparedOnly: true, refresh: true })).error.message).toBe("preparedOnly and refresh cannot both be true");
  });

  it("tools.catalog lists every tool this gateway can offer; tools.effective what a session's next turn gets", async () => {
    const catalog = (await sock.request("tools.catalog", {})).payload;
    expect(catalog.agentId).toBe("main");
    expect(catalog.profiles.map((p: any) => p.id)).toEqual(["minimal", "coding", "messaging", "full"]);
    const tools = catalog.groups.flatMap((g: any) => g.tools);
    expect(tools.find((t: any) => t.id === "exec")).toMatchObject({ source: "core", risk: "high", defaultProfiles: ["coding", "full"] });
    expect(tools.find((t: any) => t.id === "session_status").defaultProfiles).toEqual(["minimal", "coding", "messaging", "full"]);
    const effective = (await sock.request("tools.effective", { sessionKey: "geo" })).payload;
    expect(effective).toMatchObject({ agentId: "main", profile: "full", groups: [{ id: "core", source: "core" }] });
    expect(effective.groups[0].tools.map((t: any) => t.id)).toEqual(expect.arrayContaining(["read", "exec", "sessions_spawn"]));
  });

  it("gateway.identity.get answers the same Ed25519 identity every time, kept in the state dir", async () => {
    const first = (await sock.request("gateway.identity.get", {})).payload;
    const raw = Buffer.from(first.publicKey, "base64url");
    expect(raw).toHaveLength(32);
    expect(first.deviceId).toBe(createHash("sha256").update(raw).digest("hex"));
    expect((await sock.request("gateway.identity.get", {})).payload).toEqual(first);
    expect(fs.statSync(path.join(stateDir, "identity", "gateway-device.pem")).mode & 0o777).toBe(0o600);
  });

  it("agents.files.list|get|set read and write the agent's bootstrap files, refusing other names and stale hashes", async () => {
    const listed = (await sock.request("agents.files.list", { agentId: "main" })).payload;
    expect(listed.workspace).toBe(path.join(stateDir, "workspace"));
    expect(listed.files.map((f: any) => f.name)).toEqual(["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md", "MEMORY.md"]);
    const set = (await sock.request("agents.files.set", { agentId: "main", name: "USER.md", content: "# User\nLikes tea.\n" })).payload;
    expect(set).toMatchObject({ ok: true, file: { name: "USER.md", missing: false, size: 18 } });
    expect(fs.readFileSync(path.join(stateDir, "workspace", "USER.md"), "utf8")).toBe("# User\nLikes tea.\n");
    const got = (await sock.request("agents.files.get", { agentId: "main", name: "user.md" })).payload.file;
    expect(got).toMatchObject({ name: "USER.md", content: "# User\nLikes tea.\n", hash: set.file.hash });
    const stale = await sock.request("agents.files.set", { agentId: "main", name: "USER.md", content: "x", expectedHash: "0".repeat(64) });
    expect(stale.error.message).toBe("USER.md changed since it was read (expectedHash does not match); read it again and retry");
    expect(fs.readFileSync(path.join(stateDir, "workspace", "USER.md"), "utf8")).toBe("# User\nLikes tea.\n");
    expect((await sock.request("agents.files.get", { agentId: "main", name: "../openclaw.json" })).error.message).toMatch(/is not an editable agent file/);
    expect((await sock.request("agents.files.list", { agentId: "ghost" })).error.message).toBe('unknown agent "ghost"');
  });
});

describe("questions to the operator", () => {
  it("question.request is announced, answered once, and its waiter learns the answer", async () => {
    const asked = await sock.request("question.request", {
      id: "q-deploy",
      questions: [{ questionId: "target", header: "Deploy", question: "Where to?", options: [{ label: "staging" }, { label: "prod" }] }],
      sessionKey: "agent:main:main",
      timeoutMs: 60_000,
    });
    expect(asked.payload).toEqual({ id: "q-deploy", expiresAtMs: expect.any(Number) });
    const requested = await sock.waitFor((f) => f.event === "question.requested" && f.payload.id === "q-deploy");
    expect(requested.payload).toMatchObject({ status: "pending", questions: [{ questionId: "target" }] });
    expect((await sock.request("question.list", {})).payload.questions.map((q: any) => q.id)).toEqual(["q-deploy"]);
    const waiting = sock.request("question.waitAnswer", { id: "q-deploy", timeoutMs: 30_000 }, 35_000);
    expect((await sock.request("question.resolve", { id: "q-deploy", answers: { answers: { nope: ["x"] } } })).error.message).toBe(
      "answers name questions this request did not ask: nope",
    );
    const resolved = await sock.request("question.resolve", { id: "q-deploy", answers: { answers: { target: ["staging"] } } });
    expect(resolved.payload).toEqual({ status: "answered", answers: { answers: { target: ["staging"] } } });
    expect((await waiting).payload).toEqual({ status: "answered", answers: { answers: { target: ["staging"] } } });
    expect((await sock.waitFor((f) => f.event === "question.resolved" && f.payload.id === "q-deploy")).payload).toEqual({
      id: "q-deploy",
      status: "answered",
      answers: { answers: { target: ["staging"] } },
    });
    expect((await sock.request("question.get", { id: "q-deploy" })).payload.question).toMatchObject({ status: "answered", resolvedBy: expect.any(String) });
    expect((await sock.request("question.resolve", { id: "q-deploy", cancel: true })).error.message).toBe("question not found or no longer pending: q-deploy");
    expect((await sock.request("question.list", {})).payload.questions).toEqual([]);
  });

  it("a question nobody answers expires; a cancelled one tells its waiter", async () => {
    await sock.request("question.request", { id: "q-short", questions: [{ questionId: "ok", header: "Quick", question: "Still there?", options: [] }], timeoutMs: 50 });
    expect((await sock.waitFor((f) => f.event === "question.resolved" && f.payload.id === "q-short")).payload).toEqual({ id: "q-short", status: "expired" });
    await sock.request("question.request", { id: "q-cancel", questions: [{ questionId: "ok", header: "Cancel", question: "Cancel me?", options: [] }] });
    expect((await sock.request("question.resolve", { id: "q-cancel", cancel: true })).payload).toEqual({ status: "cancelled" });
    expect((await sock.request("question.waitAnswer", { id: "q-cancel" })).payload).toEqual({ status: "cancelled" });
    expect((await sock.request("plugin.approval.resolve", { id: "p1", decision: "allow-once" })).error.code).toBe("APPROVAL_NOT_FOUND");
  });
});

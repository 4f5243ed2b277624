import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, requestMessages } from "../helpers/reliability.js";
import { openOperator, type Frame, type TestSocket } from "../helpers/ws-client.js";

/**
 * The `agent` fields that pick a session by its transcript id (`sessionId`), relax delivery
 * (`bestEffortDeliver`), or shape the turn's prompt: each does what OpenClaw does with it or is
 * refused by name before anything runs, never dropped.
 */

const HOUSE_RULE = "House rule: answer like a zebra.";
let model: FakeModelServer;
let gw: GatewayProcess;
let sock: TestSocket;
let repoDir: string;

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
  const stateDir = makeTempDir();
  fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
  fs.writeFileSync(path.join(stateDir, "workspace", "AGENTS.md"), `# Agents\n\n${HOUSE_RULE}\n`);
  // The workspace sits in a repository: the runtime line names it.
  fs.mkdirSync(path.join(stateDir, ".git"));
  repoDir = stateDir;
  const config = {
    agents: { defaults: { workspace: `${stateDir}/workspace`, model: { primary: "fake/m" } } },
    models: { providers: { fake: { baseUrl: `${model.url}/v1`, apiKey: "sk-fake", api: "openai-completions", models: [{ id: "m" }] } } },
  };
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: JSON.stringify(config) } });
  sock = (await openOperator(gw.url, gw.token, { scopes: ["operator.admin"] })).sock;
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await model?.close();
});

/** Sends `agent` and waits for its final response. */
async function turn(params: Frame): Promise<Frame> {
  const ack = await sock.request("agent", { idempotencyKey: randomUUID(), ...params }, 20_000);
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  return sock.waitFor((f) => f.type === "res" && f.id === ack.id && f.payload?.status !== "accepted", 20_000);
}

async function sessionRow(key: string): Promise<Frame | undefined> {
  const res = await sock.request("sessions.list", {});
  return res.payload.sessions.find((s: Frame) => s.key === key);
}

async function refused(params: Frame): Promise<string> {
  const before = chatRequests(model).length;
  const res = await sock.request("agent", { message: "x", idempotencyKey: randomUUID(), ...params });
  expect(res.error?.code, JSON.stringify(params)).toBe("INVALID_REQUEST");
  expect(chatRequests(model).length).toBe(before);
  return res.error.message;
}

describe("agent: sessionId", () => {
  it("runs the turn in the session whose transcript has that id, as openclaw agent --session-id does", async () => {
    await turn({ message: "remember the word kiwi", sessionKey: "fruit" });
    const row = await sessionRow("agent:main:fruit");
    expect(row?.sessionId).toEqual(expect.any(String));
    // What `openclaw agent --session-id <id> -m …` sends.
    const final = await turn({ message: "which word?", sessionId: row!.sessionId, timeout: 600 });
    expect(final.payload.status).toBe("ok");
    expect(requestMessages(chatRequests(model).at(-1)!).map((m) => m.text)).toEqual(expect.arrayContaining(["remember the word kiwi", "which word?"]));
    expect(await sessionRow("agent:main:main")).toBeUndefined();
    // With sessionKey naming the same session, both agree.
    await turn({ message: "again", sessionKey: "fruit", sessionId: row!.sessionId });
  });

  it("refuses a sessionId no session has, or one another session than sessionKey's has, and runs nothing", async () => {
    expect(await refused({ sessionId: "no-such-session" })).toMatch(/^sessionId: no session has sessionId no-such-session \(/);
    const fruit = (await sessionRow("agent:main:fruit"))!.sessionId;
    expect(await refused({ sessionId: fruit, sessionKey: "other" })).toMatch(
      new RegExp(`^sessionId ${fruit} is not the current transcript of session agent:main:other \\(it has none yet\\)`),
    );
    expect(await sessionRow("agent:main:other")).toBeUndefined();
  });
});

describe("agent: bestEffortDeliver", () => {
  it("with deliver and no chat to send to, runs the turn in its session only and says why nothing was sent", async () => {
    expect(await refused({ sessionKey: "best-effort", deliver: true })).toBe("deliver: this gateway has no chat channel running");
    const final = await turn({ message: "note this", sessionKey: "best-effort", deliver: true, bestEffortDeliver: true });
    expect(final.payload).toMatchObject({
      status: "ok",
      summary: "model: note this",
      deliveryStatus: { requested: true, attempted: false, status: "failed", error: "deliver: this gateway has no chat channel running" },
    });
    expect(await sessionRow("agent:main:best-effort")).toBeDefined();
  });

  it("is refused without deliver, which it would relax", async () => {
    expect(await refused({ sessionKey: "best-effort", bestEffortDeliver: true })).toMatch(/^bestEffortDeliver only relaxes deliver: true/);
    await turn({ message: "plain", sessionKey: "best-effort", bestEffortDeliver: false });
  });
});

/** The system prompt of the last model request. */
function lastSystemPrompt(): string {
  return requestMessages(chatRequests(model).at(-1)!)
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => m.text)
    .join("\n");
}

describe("agent: promptMode and bootstrapContextMode", () => {
  it("promptMode sets how much system prompt the turn gets; bootstrapContextMode lightweight leaves the workspace files out", async () => {
    await turn({ message: "full", sessionKey: "prompt" });
    const full = lastSystemPrompt();
    expect(full).toContain(HOUSE_RULE);
    expect(full).toContain("## Safety");
    expect(full).toContain(`| repo=${repoDir} |`);
    await turn({ message: "minimal", sessionKey: "prompt", promptMode: "minimal", extraSystemPrompt: "Task: count sheep." });
    const minimal = lastSystemPrompt();
    expect(minimal).toContain("## Tooling");
    expect(minimal).toContain("## Subagent Context\nTask: count sheep.");
    expect(minimal).not.toContain("## Safety");
    expect(minimal).not.toContain(HOUSE_RULE);
    await turn({ message: "none", sessionKey: "prompt", promptMode: "none" });
    expect(lastSystemPrompt()).not.toContain("## Tooling");
    await turn({ message: "light", sessionKey: "prompt", bootstrapContextMode: "lightweight" });
    const light = lastSystemPrompt();
    expect(light).toContain("## Safety");
    expect(light).not.toContain(HOUSE_RULE);
    // Each setting is the turn's own: the next turn gets the whole prompt again.
    await turn({ message: "again", sessionKey: "prompt", bootstrapContextMode: "full", promptMode: "full" });
    const beforeClock = (text: string) => text.replace(/## Current Date & Time[\s\S]*$/, "");
    expect(beforeClock(lastSystemPrompt())).toBe(beforeClock(full));
  });
});

describe("agent: inputProvenance", () => {
  it("is stored on the message as where it came from; it needs admin and a known kind", async () => {
    const from = { kind: "inter_session", sourceSessionKey: "agent:main:planner", sourceTool: "sessions_send" };
    await turn({ message: "from the planner", sessionKey: "provenance", inputProvenance: from });
    const history = await sock.request("chat.history", { sessionKey: "provenance" });
    const sent = history.payload.messages.find((m: Frame) => m.role === "user");
    expect(sent.provenance).toEqual({ ...from, method: "agent" });
    expect(await refused({ sessionKey: "provenance", inputProvenance: { kind: "rumour" } })).toBe(
      "inputProvenance must be an object whose kind is external_user, inter_session or internal_system",
    );
    const writer = (await openOperator(gw.url, gw.token, { scopes: ["operator.write"] })).sock;
    const denied = await writer.request("agent", { message: "x", sessionKey: "provenance", idempotencyKey: randomUUID(), inputProvenance: from });
    writer.close();
    expect(denied.error.message).toBe("inputProvenance requires admin scope (operator.admin)");
  });
});

describe("agent: disableMessageTool", () => {
  it("takes the message tool from this run only", async () => {
    const toolNames = () => ((chatRequests(model).at(-1)!.body?.tools ?? []) as Frame[]).map((t) => t.function?.name);
    await turn({ message: "with tools", sessionKey: "no-message-tool" });
    expect(toolNames()).toContain("message");
    await turn({ message: "without message", sessionKey: "no-message-tool", disableMessageTool: true });
    const without = toolNames();
    expect(without).not.toContain("message");
    expect(without.length).toBeGreaterThan(0);
    await turn({ message: "again", sessionKey: "no-message-tool" });
    expect(toolNames()).toContain("message");
  });
});

describe("agent: fields with nothing behind them here", () => {
  it("refuses each by name, saying why, and runs nothing; the value every run already has is accepted", async () => {
    const cases: Frame[] = [
      { internalEvents: [{ type: "task_completion" }] },
      { suppressPromptPersistence: true },
      { sessionEffects: "internal" },
      { sourceReplyDeliveryMode: "message_tool_only" },
      { voiceWakeTrigger: "hey claw" },
      { modelRun: { provider: "fake", model: "m" } },
      { cleanupBundleMcpOnRunEnd: true },
    ];
    for (const fields of cases) {
      const [field] = Object.keys(fields);
      expect(await refused({ sessionKey: "refusals", ...fields })).toMatch(new RegExp(`^not supported: ${field} \\(.+\\)$`));
    }
    expect(await sessionRow("agent:main:refusals")).toBeUndefined();
    const final = await turn({
      message: "defaults",
      sessionKey: "defaults",
      suppressPromptPersistence: false,
      sessionEffects: "visible",
      sourceReplyDeliveryMode: "automatic",
      disableMessageTool: false,
      cleanupBundleMcpOnRunEnd: false,
    });
    expect(final.payload.status).toBe("ok");
  });
});

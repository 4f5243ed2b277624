import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { fakeAgentCommand, isRunning, processesWithArgument } from "../helpers/acp-agent.js";
import { eventually } from "../helpers/chat-session.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * A `type: "acp"` binding: the bound Telegram DM talks straight to a persistent session of the
 * ACP agent (no model turn), chat commands stay with the gateway, an unbound chat still reaches
 * the model, and a restart in the middle of a bound turn tells the chat once that the answer was
 * lost instead of running the message again.
 */

const BOUND = 5151;
const OTHER = 6262;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let stateDir: string;
let agentLog: string;

const agentLines = () =>
  fs.existsSync(agentLog)
    ? fs
        .readFileSync(agentLog, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
    : [];
const texts = (chat: number) => telegram.messages(chat).map((m) => String(m.text));

function config(acp: Record<string, unknown> = {}): string {
  return fakeModelConfig(model, stateDir, {
    channels: {
      telegram: telegramChannelConfig(telegram, { allowFrom: [String(BOUND), String(OTHER)] }),
    },
    acp: {
      enabled: true,
      agents: { coder: fakeAgentCommand("--log", agentLog, "--store", path.join(stateDir, "agent-store"), "--marker", stateDir) },
      // A pause of the agent's well under its 3 s `#slow` sends what it wrote (the streaming test).
      stream: { coalesceIdleMs: 200 },
      ...acp,
    },
    bindings: [{ type: "acp", agentId: "coder", match: { channel: "telegram", peer: { kind: "direct", id: String(BOUND) } }, acp: { label: "bound coder" } }],
  });
}

beforeAll(async () => {
  model = await startFakeModelServer();
  telegram = await startFakeTelegram();
  stateDir = makeTempDir();
  agentLog = path.join(stateDir, "agent.log");
  model.setResponder(() => ({ text: "the model answered" }));
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: config() } });
  await gw.waitForOutput(/channel account started/, 10_000);
});
afterAll(async () => {
  await gw?.stop();
  await telegram?.close();
  await model?.close();
});

describe('bindings[] type "acp"', () => {
  it("sends the bound chat's messages to one persistent ACP session and its replies back, never to the model", async () => {
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "first #echo", messageId: 1 });
    await telegram.waitFor(() => texts(BOUND).includes("echo: first"), 30_000);
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "second #echo", messageId: 2 });
    await telegram.waitFor(() => texts(BOUND).includes("echo: second"), 30_000);
    expect(texts(BOUND)).toEqual(["echo: first", "echo: second"]);
    expect(model.requests).toHaveLength(0);
    // One session: created once, prompted twice, in the configured agent's process.
    const lines = agentLines();
    expect(lines.filter((l) => l.method === "session/new")).toHaveLength(1);
    const prompts = lines.filter((l) => l.method === "session/prompt");
    expect(prompts).toHaveLength(2);
    expect(new Set(prompts.map((p) => p.params?.sessionId ?? p.sessionId)).size).toBe(1);
  }, 60_000);

  it("leaves chat commands to the gateway: /acp sessions lists the bound session", async () => {
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "/acp sessions", messageId: 3 });
    await telegram.waitFor(() => texts(BOUND).length === 3, 30_000);
    expect(texts(BOUND)[2]).toBe('#1 "bound coder" — coder, ready, persistent');
    expect(agentLines().filter((l) => l.method === "session/prompt")).toHaveLength(2);
  }, 60_000);

  it("asks the chat when the agent wants permission, and /approve there answers it", async () => {
    const before = texts(BOUND).length;
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "tidy up #permission", messageId: 10 });
    await telegram.waitFor(
      () =>
        texts(BOUND)
          .slice(before)
          .some((t) => t.startsWith("🔐")),
      30_000,
    );
    const question = texts(BOUND)
      .slice(before)
      .find((t) => t.startsWith("🔐"))!;
    expect(question).toMatch(/^🔐 ACP agent <code>coder<\/code> asks: Edit src\/utils\.ts\nReply \/approve [0-9a-f-]{36} allow-once \| allow-always \| deny$/);
    const id = /\/approve ([0-9a-f-]{36})/.exec(question)![1]!;
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: `/approve ${id} allow-once`, messageId: 11 });
    await telegram.waitFor(
      () =>
        texts(BOUND)
          .slice(before)
          .some((t) => t.startsWith("permission: ")),
      30_000,
    );
    expect(
      texts(BOUND)
        .slice(before)
        .find((t) => t.startsWith("permission: ")),
    ).toBe("permission: allow-once (allow_once)");
    expect(model.requests).toHaveLength(0);
  }, 60_000);

  it("routes an unbound chat to the model as before", async () => {
    telegram.pushMessage({ chatId: OTHER, fromId: OTHER, text: "hello model", messageId: 4 });
    await telegram.waitFor(() => texts(OTHER).includes("the model answered"), 30_000);
    expect(model.requests.length).toBeGreaterThan(0);
  }, 60_000);

  it("after a SIGKILL mid-turn the chat is told once that the answer was lost, and the message does not run again", async () => {
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "long job #slow:600000", messageId: 5 });
    await eventually(async () => expect(agentLines().filter((l) => l.method === "session/prompt")).toHaveLength(4), 30_000);
    await gw.stop("SIGKILL");
    gw = await startGateway({ stateDir, token: gw.token });
    // Telegram shows the Markdown code span as HTML.
    const notice = "⚠️ The gateway restarted while ACP agent <code>coder</code> was working on your message, and its answer was lost. Send the message again if you still need it.";
    await telegram.waitFor(() => texts(BOUND).includes(notice), 30_000);
    // The orphaned agent is ended; the next message gets a working session again.
    await eventually(async () => expect(processesWithArgument(stateDir).filter(isRunning)).toHaveLength(0), 30_000);
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "after #echo", messageId: 6 });
    await telegram.waitFor(() => texts(BOUND).includes("echo: after"), 30_000);
    expect(texts(BOUND).filter((t) => t === notice)).toHaveLength(1);
    expect(agentLines().filter((l) => l.method === "session/prompt" && JSON.stringify(l).includes("long job"))).toHaveLength(1);
  }, 120_000);

  it("a binding's agent left out of acp.allowedAgents is not started: the chat is told why", async () => {
    const prompts = () => agentLines().filter((l) => l.method === "session/prompt").length;
    const before = prompts();
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), config({ allowedAgents: ["other"] }));
    await gw.waitForOutput(/config reloaded/, 10_000);
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "still there? #echo", messageId: 7 });
    await telegram.waitFor(() => texts(BOUND).some((t) => t.includes("acp.allowedAgents")), 30_000);
    expect(texts(BOUND).at(-1)).toBe("⚠️ ACP agent <code>coder</code>: it is not in acp.allowedAgents (other), so this chat's binding cannot reach it.");
    expect(prompts()).toBe(before);
  }, 60_000);

  it("acp.dispatch.enabled false pauses the bound chat's dispatch while /acp still answers; true resumes it", async () => {
    const prompts = () => agentLines().filter((l) => l.method === "session/prompt").length;
    const reloads = () => gw.output().split('"msg":"config reloaded"').length;
    const reload = async (content: string) => {
      const before = reloads();
      fs.writeFileSync(path.join(stateDir, "openclaw.json"), content);
      await telegram.waitFor(() => reloads() > before, 10_000);
    };
    await reload(config({ dispatch: { enabled: false } }));
    const before = prompts();
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "paused? #echo", messageId: 8 });
    await telegram.waitFor(() => texts(BOUND).some((t) => t.includes("acp.dispatch.enabled")), 30_000);
    expect(texts(BOUND).at(-1)).toContain("ACP dispatch is disabled by policy (acp.dispatch.enabled: false), so this message did not reach the agent");
    expect(prompts()).toBe(before);
    const shown = texts(BOUND).length;
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "/acp sessions", messageId: 9 });
    await telegram.waitFor(() => texts(BOUND).length > shown, 30_000);
    expect(texts(BOUND).at(-1)).toContain("coder");
    expect(prompts()).toBe(before);

    await reload(config());
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "resumed #echo", messageId: 12 });
    await telegram.waitFor(() => texts(BOUND).includes("echo: resumed"), 30_000);
    expect(prompts()).toBe(before + 1);
  }, 90_000);

  it("sends the bound agent's reply while it writes (acp.stream.deliveryMode live): what it wrote before a pause, then the rest", async () => {
    const before = texts(BOUND).length;
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "stream it #chunks:2 #slow:3000 #chunks:1", messageId: 13 });
    await telegram.waitFor(() => texts(BOUND).length >= before + 2, 30_000);
    expect(texts(BOUND).slice(before)).toEqual(["c0 c1", "c0 Done: stream it"]);
  }, 60_000);

  it("asks the agent's form (elicitation/create) in the chat, round by round, and the replies there answer it", async () => {
    const before = texts(BOUND).length;
    const shown = () => texts(BOUND).slice(before);
    const prompts = () => shown().filter((t) => t.startsWith("❓ Question for you:"));
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "deploy #elicit", messageId: 14 });
    await telegram.waitFor(() => prompts().length === 1, 30_000);
    expect(prompts()[0]).toContain("Deploy settings\nWhere to deploy\n1. Staging\n2. Production");
    expect(prompts()[0]).toContain("<b>3. Confirm</b>\nConfirm\n1. True\n2. False");
    // An answer that does not fit the schema asks the round again, saying why.
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "target: 2\nreplicas: lots\nconfirm: true", messageId: 15 });
    await telegram.waitFor(() => prompts().length === 2, 30_000);
    expect(prompts()[1]).toContain("⚠️ Replicas: answer a whole number");
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "target: 2\nreplicas: 3\nconfirm: true", messageId: 16 });
    // The optional field comes in a round of its own.
    await telegram.waitFor(() => prompts().length === 3, 30_000);
    expect(prompts()[2]).toContain("Note (optional: reply - to leave it out)");
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "-", messageId: 17 });
    await telegram.waitFor(() => shown().some((t) => t.startsWith("elicit:")), 30_000);
    expect(shown().find((t) => t.startsWith("elicit:"))).toBe('elicit: accept {"target":"prod","replicas":3,"confirm":true}');
    const init = agentLines().find((l) => l.method === "initialize");
    expect(init.clientCapabilities.elicitation).toEqual({ form: {}, url: {} });
  }, 90_000);

  it("asks the agent's URL step as a browser step, answered in the chat", async () => {
    const before = texts(BOUND).length;
    const shown = () => texts(BOUND).slice(before);
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "log in #elicit-url", messageId: 20 });
    await telegram.waitFor(() => shown().some((t) => t.startsWith("❓ Question for you:")), 30_000);
    expect(shown().find((t) => t.startsWith("❓ Question for you:"))).toContain(
      "Sign in to the registry\n\nhttps://registry.example.com/device?code=AB12\n\nOpen the link and complete the step in your browser",
    );
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "1", messageId: 21 });
    await telegram.waitFor(() => shown().includes("elicit-url: accept"), 30_000);
  }, 60_000);

  it("a form whose turn is cancelled is no longer asked: its question ends as cancelled", async () => {
    const before = texts(BOUND).length;
    // As the chat shows them now (the prompt is edited once its question ends).
    const prompts = () =>
      telegram
        .shown(BOUND)
        .slice(before)
        .filter((t) => t.startsWith("❓ Question for you:"));
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "deploy again #elicit", messageId: 18 });
    await telegram.waitFor(() => prompts().length === 1, 30_000);
    telegram.pushMessage({ chatId: BOUND, fromId: BOUND, text: "/acp cancel #1", messageId: 19 });
    await telegram.waitFor(() => prompts().some((t) => t.endsWith("✖️ Cancelled.")), 30_000);
    // The turn itself ends saying it was cancelled, not that the agent had nothing to say.
    await telegram.waitFor(() => texts(BOUND).slice(before).includes("(ACP agent <code>coder</code> stopped: its turn was cancelled before it replied.)"), 30_000);
  }, 60_000);
});

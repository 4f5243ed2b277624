import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeSummaryReply, isSummaryRequest, type RecordedRequest } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway } from "../helpers/gateway-process.js";
import { readEvents, writeRecorderHook } from "../helpers/hook-recorder.js";
import { systemPromptOf } from "../helpers/model-request.js";
import { lastUserText, readIndex, waitUntil } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * Internal hooks through the real gateway process: the bundled boot-md hook runs BOOT.md at
 * start as an agent turn (which tells a Telegram chat through the message tool), and the
 * session, agent and message event families reach an enabled hook with their context.
 */

const CHAT = 401;
const servers = useFakeServers({ telegram: true });

const lastRole = (req: RecordedRequest): string => req.body.messages?.at(-1)?.role ?? "";
const telegramConfig = () => ({
  telegram: telegramChannelConfig(servers.telegram, { allowFrom: [String(CHAT)] }),
});

describe("openclaw hooks", { timeout: 60_000 }, () => {
  it("list, info and enable say when a hook listens to an event this gateway never emits", async () => {
    const stateDir = makeTempDir("openclaw-hooks-events-");
    const dir = path.join(stateDir, "hooks", "typo-hook");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "HOOK.md"), '---\nname: typo-hook\ndescription: x\nmetadata:\n  openclaw:\n    events: ["command:new", "command:neww"]\n---\n');
    fs.writeFileSync(path.join(dir, "handler.js"), "export default async () => {};\n");
    const env = { OPENCLAW_STATE_DIR: stateDir };
    const note = "never emitted here: command:neww (docs/automation.md#internal-hooks lists the events)";
    const list = await runCli(["hooks", "list"], env);
    expect(list.output.split("\n").find((l) => l.includes("typo-hook"))).toContain(note);
    expect(list.output.split("\n").find((l) => l.includes("session-memory"))).not.toContain("never emitted");
    expect(JSON.parse((await runCli(["hooks", "info", "typo-hook", "--json"], env)).output)).toMatchObject({ unknownEvents: ["command:neww"] });
    expect((await runCli(["hooks", "info", "typo-hook"], env)).output).toContain(`Events: command:new, command:neww (${note})`);
    const enabled = await runCli(["hooks", "enable", "typo-hook"], env);
    expect(enabled.code, enabled.output).toBe(0);
    expect(enabled.output).toContain(note);
  });
});

describe("internal hooks in the gateway", { timeout: 120_000 }, () => {
  it("boot-md runs BOOT.md once at start in its own session; the agent tells the chat through the message tool", async () => {
    const stateDir = makeTempDir("openclaw-boot-md-");
    const workspace = path.join(stateDir, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, "BOOT.md"), "# Boot\n- Tell the ops chat that the gateway is back.\n");
    servers.model.setResponder((req) => {
      if (lastRole(req) === "tool") return { text: "NO_REPLY" };
      if (lastUserText(req).includes("Tell the ops chat")) {
        return { toolCalls: [{ name: "message", arguments: { channel: "telegram", to: String(CHAT), message: "The gateway is back." } }] };
      }
      return { text: "unexpected" };
    });
    const hooks = { internal: { entries: { "boot-md": { enabled: true } } } };
    const gateway = servers.keep(
      await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: telegramConfig(), hooks }) } }),
    );
    await servers.telegram.waitFor(() => servers.telegram.messages(CHAT).length === 1, 30_000);
    expect(String(servers.telegram.messages(CHAT)[0]!.text)).toBe("The gateway is back.");
    await waitUntil(() => /"msg":"internal hook agent turn ended"/.test(gateway.output()), 20_000, "the boot turn to end");
    expect(gateway.output()).toMatch(/"hook":"boot-md","sessionKey":"agent:main:hook:boot-md"[^\n]*"status":"ok"/);
    // One boot turn (the model call and the call after the tool result); the main session was not touched.
    const turns = servers.model.requests.filter((r) => r.method === "POST" && lastUserText(r).includes("BOOT.md"));
    expect(turns.length).toBeGreaterThanOrEqual(1);
    expect(lastUserText(turns[0]!)).toContain("- Tell the ops chat that the gateway is back.");
    // A plain session's row reaches sessions.json coalesced, within about a second.
    await waitUntil(() => Object.keys(readIndex(stateDir)).length > 0, 10_000, "the boot session's row in sessions.json");
    expect(Object.keys(readIndex(stateDir))).toEqual(["agent:main:hook:boot-md"]);
  });

  it("an agent:bootstrap hook changes the files the turn's prompt carries", async () => {
    const stateDir = makeTempDir("openclaw-hook-bootstrap-");
    fs.mkdirSync(path.join(stateDir, "workspace"), { recursive: true });
    fs.writeFileSync(path.join(stateDir, "workspace", "AGENTS.md"), "# Agents\nOriginal rules.\n");
    const dir = path.join(stateDir, "hooks", "extra-rules");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "HOOK.md"), `---\nname: extra-rules\ndescription: adds a file\nmetadata:\n  openclaw:\n    events: ["agent:bootstrap"]\n---\n`);
    fs.writeFileSync(
      path.join(dir, "handler.js"),
      `export default async (event) => {
  const files = event.context.bootstrapFiles.filter((f) => f.name !== "AGENTS.md");
  files.push({ name: "EXTRA.md", content: "Always answer in haiku (from " + event.context.agentId + ")." });
  event.context.bootstrapFiles = files;
};
`,
    );
    let prompt = "";
    servers.model.setResponder((req) => {
      prompt = systemPromptOf(req);
      return { text: "done" };
    });
    const hooks = { internal: { entries: { "extra-rules": { enabled: true } } } };
    const gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { hooks }) } }));
    const env = { OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) };
    const sent = await runCli(["gateway", "call", "chat.send", "--params", JSON.stringify({ sessionKey: "main", message: "hi", idempotencyKey: "boot-1" })], env);
    expect(sent.code, sent.output).toBe(0);
    await runCli(["gateway", "call", "agent.wait", "--params", JSON.stringify({ runId: "boot-1", timeoutMs: 30_000 })], env);
    expect(prompt).toContain("Always answer in haiku (from main).");
    expect(prompt).toContain("EXTRA.md");
    expect(prompt).not.toContain("Original rules.");
  });

  it("message, session and compaction events reach an enabled hook from the gateway's own event streams", async () => {
    const stateDir = makeTempDir("openclaw-hook-families-");
    const log = path.join(stateDir, "events.jsonl");
    writeRecorderHook(stateDir, log);
    servers.model.setResponder((req) =>
      isSummaryRequest(req) ? fakeSummaryReply(req) : lastUserText(req).includes("Hello from Telegram") ? { text: "Hi there." } : { text: LONG_REPLY },
    );
    const configFor = (extra: Record<string, unknown>) => {
      const config = JSON.parse(
        fakeModelConfig(servers.model, stateDir, { channels: telegramConfig(), hooks: { internal: { entries: { recorder: { enabled: true } } } }, ...extra }),
      );
      config.models.providers.fake.models = [{ id: "fake-model", contextWindow: 20_000, maxTokens: 1024 }];
      config.agents.defaults.skipBootstrap = true;
      return JSON.stringify(config);
    };
    let gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor({}) } }));
    const env = () => ({ OPENCLAW_STATE_DIR: stateDir, OPENCLAW_GATEWAY_TOKEN: gateway.token!, OPENCLAW_GATEWAY_PORT: String(gateway.port) });
    const events = () => readEvents(log);
    const call = async (method: string, params: unknown) => {
      const out = await runCli(["gateway", "call", method, "--params", JSON.stringify(params)], env());
      expect(out.code, out.output).toBe(0);
      return JSON.parse(out.output);
    };

    // A Telegram message in, the reply out.
    servers.telegram.pushMessage({ chatId: CHAT, fromId: CHAT, text: "Hello from Telegram", messageId: 7 });
    await waitUntil(() => events().some((e) => e.action === "sent"), 30_000, "message:sent");
    const received = events().find((e) => e.type === "message" && e.action === "received")!;
    expect(received).toMatchObject({
      sessionKey: "agent:main:main",
      context: { channel: "telegram", from: String(CHAT), conversationId: String(CHAT), content: "Hello from Telegram", messageId: "7" },
    });
    const sent = events().find((e) => e.type === "message" && e.action === "sent")!;
    expect(sent).toMatchObject({ sessionKey: "agent:main:main", context: { channel: "telegram", to: String(CHAT), content: "Hi there.", success: true } });

    // sessions.patch, then a manual compaction of a long session.
    await call("sessions.patch", { key: "main", thinkingLevel: "low" });
    await waitUntil(() => events().some((e) => e.action === "patch"), 15_000, "session:patch");
    expect(events().find((e) => e.action === "patch")).toMatchObject({ type: "session", sessionKey: "agent:main:main", context: { agentId: "main", thinkingLevel: "low" } });
    // sessions.reset is heard as the command its reason names, with the session's last messages.
    await call("sessions.reset", { key: "main", reason: "new" });
    await waitUntil(() => events().some((e) => e.type === "command"), 15_000, "command:new from sessions.reset");
    expect(events().find((e) => e.type === "command")).toMatchObject({
      action: "new",
      sessionKey: "agent:main:main",
      context: { agentId: "main", commandSource: "sessions.reset", messages: expect.arrayContaining([{ role: "user", text: "Hello from Telegram" }]) },
    });
    for (let i = 1; i <= 4; i++) {
      await call("chat.send", { sessionKey: "notes", message: `Point ${i}`, idempotencyKey: `notes-${i}` });
      await call("agent.wait", { runId: `notes-${i}`, timeoutMs: 30_000 });
    }
    const compacted = await call("sessions.compact", { key: "notes" });
    expect(compacted).toMatchObject({ compacted: true });
    await waitUntil(() => events().some((e) => e.action === "compact:after"), 15_000, "session:compact:after");
    const compaction = events().filter((e) => e.action.startsWith("compact:"));
    expect(compaction.map((e) => e.action)).toEqual(["compact:before", "compact:after"]);
    expect(compaction[0]).toMatchObject({ type: "session", sessionKey: "agent:main:notes", context: { reason: "manual", model: "fake/fake-model" } });
    expect(compaction[1]!.context).toMatchObject({ reason: "manual", compactionCount: 1 });
    expect(compaction[1]!.context.tokensAfter).toBeLessThan(compaction[1]!.context.tokensBefore);

    // An idle session starts over before the next message: session:auto-reset with its last messages.
    await gateway.stop();
    const indexFile = path.join(stateDir, "agents", "main", "sessions", "sessions.json");
    const index = readIndex(stateDir);
    Object.assign(index["agent:main:notes"], { updatedAt: Date.now() - 2 * 60 * 60_000, lastInteractionAt: Date.now() - 2 * 60 * 60_000 });
    fs.writeFileSync(indexFile, JSON.stringify(index));
    gateway = servers.keep(await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor({ session: { reset: { mode: "idle", idleMinutes: 60 } } }) } }));
    await call("chat.send", { sessionKey: "notes", message: "Back again", idempotencyKey: "notes-5" });
    await waitUntil(() => events().some((e) => e.action === "auto-reset"), 15_000, "session:auto-reset");
    const reset = events().find((e) => e.action === "auto-reset")!;
    expect(reset).toMatchObject({ type: "session", sessionKey: "agent:main:notes", context: { agentId: "main" } });
    expect(reset.context.messages).toEqual(expect.arrayContaining([{ role: "user", text: "Point 4" }]));
  });
});

const LONG_REPLY = "Long answer. ".repeat(920);

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, runCli, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, sleep, waitUntil } from "../helpers/reliability.js";
import { isSubagentRequest, lastMessageOf } from "../helpers/model-request.js";
import { openOperator } from "../helpers/ws-client.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";
import { useFakeServers } from "../helpers/fake-servers.js";

/**
 * Issue 5, Telegram end to end: the real grammY client in the gateway long-polls a fake Bot
 * API server; the agent talks to a fake model server.
 */

const OWNER = 111;
const servers = useFakeServers();

function telegramConfig(extra: Record<string, unknown> = {}) {
  return telegramChannelConfig(servers.telegram, { allowFrom: [String(OWNER)], groups: { "*": {} }, ...extra });
}

async function start(opts: { stateDir?: string; telegram?: Record<string, unknown>; extra?: Record<string, unknown> } = {}): Promise<GatewayProcess> {
  const stateDir = opts.stateDir ?? makeTempDir();
  const gw = await startGateway({
    stateDir,
    configFile: { name: "openclaw.json", content: fakeModelConfig(servers.model, stateDir, { channels: { telegram: telegramConfig(opts.telegram) }, ...opts.extra }) },
  });
  servers.keep(gw);
  await gw.waitForOutput(/channel account started/, 10_000);
  return gw;
}

const repliesTo = (chatId: number) => servers.telegram.messages(chatId).map((m) => String(m.text));

describe("Telegram channel", () => {
  it("pairing commands refuse a name that is no channel", async () => {
    const env = { OPENCLAW_STATE_DIR: makeTempDir() };
    for (const args of [
      ["pairing", "list", "bogus"],
      ["pairing", "list", "--channel", "bogus"],
      ["pairing", "approve", "bogus", "123"],
      ["pairing", "reject", "bogus", "123"],
    ]) {
      const res = await runCli(args, env);
      expect(res.code, args.join(" ")).toBe(1);
      expect(res.output).toContain('unknown channel "bogus" (expected one of: telegram, discord, slack)');
    }
    expect((await runCli(["pairing", "list", "Telegram"], env)).output).toContain("No pending pairing requests");
  });

  it("answers an allowlisted DM exactly once, also when Telegram delivers the update twice", async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => ({ text: `echo: ${lastUserText(req)}` }));
    await start();
    const update = servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hello there", messageId: 10 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 10_000);
    expect(repliesTo(OWNER)).toEqual(["echo: hello there"]);
    servers.telegram.pushUpdate(update);
    await servers.telegram.waitFor(() => servers.telegram.getUpdatesOffsets.filter((o) => o !== undefined && o > (update.update_id as number)).length >= 2, 10_000);
    await sleep(300);
    expect(repliesTo(OWNER)).toEqual(["echo: hello there"]);
    expect(chatRequests(servers.model)).toHaveLength(1);
  });

  it("gives the owner named in allowFrom the owner-only tools (exec, process) and a sender let in by dmPolicy open none of them", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "ok" }));
    await start({ telegram: { dmPolicy: "open", allowFrom: [String(OWNER), "*"] } });
    const toolsOfLastTurn = () => ((chatRequests(servers.model).at(-1)!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "from the owner", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 10_000);
    expect(toolsOfLastTurn()).toEqual(expect.arrayContaining(["exec", "process", "read"]));
    servers.telegram.pushMessage({ chatId: 333, fromId: 333, text: "from a stranger", messageId: 2 });
    await servers.telegram.waitFor(() => repliesTo(333).length === 1, 10_000);
    const strangerTools = toolsOfLastTurn();
    expect(strangerTools).toContain("read");
    expect(strangerTools).not.toContain("exec");
    expect(strangerTools).not.toContain("process");
  });

  it("gives an unknown sender a pairing code and no agent run; after `pairing approve` the sender is answered", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "welcome" }));
    const gw = await start();
    servers.telegram.pushMessage({ chatId: 222, fromId: 222, text: "let me in", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(222).length === 1, 10_000);
    const pairingText = repliesTo(222)[0]!;
    expect(pairingText).toContain("Your Telegram user id: 222");
    const code = /Pairing code: ([A-Z2-9]{8})/.exec(pairingText)![1]!;
    expect(code).not.toMatch(/[01OI]/);
    // Another DM while pending: no second code, still no agent.
    servers.telegram.pushMessage({ chatId: 222, fromId: 222, text: "hello?", messageId: 2 });
    await sleep(500);
    expect(repliesTo(222)).toHaveLength(1);
    expect(chatRequests(servers.model)).toHaveLength(0);

    const listed = await runCli(["pairing", "list", "telegram", "--json"], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(JSON.parse(listed.output).requests).toMatchObject([{ channel: "telegram", senderId: "222", code }]);
    const approved = await runCli(["pairing", "approve", "telegram", code.toLowerCase()], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(approved.code).toBe(0);
    // No owner was configured: the first approved sender becomes it (OpenClaw's CLI rule).
    expect(approved.output).toContain("telegram:222 is now the owner");
    const config = JSON.parse(fs.readFileSync(path.join(gw.stateDir, "openclaw.json"), "utf8"));
    expect(config.commands.ownerAllowFrom).toEqual(["telegram:222"]);
    servers.telegram.pushMessage({ chatId: 222, fromId: 222, text: "now?", messageId: 3 });
    await servers.telegram.waitFor(() => repliesTo(222).length === 2, 10_000);
    expect(repliesTo(222)[1]).toBe("welcome");
    const again = await runCli(["pairing", "approve", "telegram", code], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(again.code).not.toBe(0);
  });

  it("`pairing reject` (alias deny) drops a request: the sender stays out, and a later DM gets a new code", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "should not run" }));
    const gw = await start();
    servers.telegram.pushMessage({ chatId: 333, fromId: 333, text: "let me in", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(333).length === 1, 10_000);
    const code = /Pairing code: ([A-Z2-9]{8})/.exec(repliesTo(333)[0]!)![1]!;
    const unknown = await runCli(["pairing", "reject", "telegram", "ZZZZZZZZ"], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toContain("No pending pairing request with code ZZZZZZZZ on telegram");
    const denied = await runCli(["pairing", "deny", "telegram", code, "--json"], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.output).rejected).toMatchObject({ channel: "telegram", senderId: "333", code });
    const listed = await runCli(["pairing", "list", "telegram", "--json"], { OPENCLAW_STATE_DIR: gw.stateDir });
    expect(JSON.parse(listed.output).requests).toEqual([]);
    expect(fs.existsSync(path.join(gw.stateDir, "credentials", "telegram-default-allowFrom.json"))).toBe(false);
    servers.telegram.pushMessage({ chatId: 333, fromId: 333, text: "again", messageId: 2 });
    await servers.telegram.waitFor(() => repliesTo(333).length === 2, 10_000);
    const second = /Pairing code: ([A-Z2-9]{8})/.exec(repliesTo(333)[1]!)![1]!;
    expect(second).not.toBe(code);
    expect(chatRequests(servers.model)).toHaveLength(0);
  });

  it("ignores a group message without a mention when requireMention, and answers a mention", async () => {
    await servers.startTelegram({ botUsername: "claw_bot" });
    servers.model.setResponder((req) => ({ text: `group: ${lastUserText(req)}` }));
    await start();
    servers.telegram.pushMessage({ chatId: -100123, fromId: OWNER, fromName: "Ann", text: "just chatting", messageId: 5 });
    servers.telegram.pushMessage({
      chatId: -100123,
      fromId: OWNER,
      fromName: "Ann",
      text: "@claw_bot what time is it",
      messageId: 6,
      entities: [{ type: "mention", offset: 0, length: 9 }],
    });
    await servers.telegram.waitFor(() => repliesTo(-100123).length === 1, 10_000);
    await sleep(300);
    expect(chatRequests(servers.model)).toHaveLength(1);
    // The unmentioned message is not answered, but it is the next reply's context (historyLimit).
    expect(repliesTo(-100123)[0]).toMatch(
      /^group: \[Chat messages since your last reply - for context\][\s\S]*\n\[Ann\] just chatting\n[\s\S]*\[Current message - respond to this\]\n\[Ann\] what time is it$/,
    );
  });

  it("logs a message from a group outside the groups allowlist at info, naming the chat and why; a sender outside the group's sender list only at debug", async () => {
    const telegram = await servers.startTelegram({ botUsername: "claw_bot" });
    const gw = await start({ telegram: { groups: { "-100123": { allowFrom: [String(OWNER)] } } } });
    telegram.pushMessage({ chatId: -100123, fromId: 999, fromName: "Stranger", text: "@claw_bot hi", messageId: 7 });
    telegram.pushMessage({ chatId: -100456, fromId: OWNER, fromName: "Ann", text: "@claw_bot hi", messageId: 8 });
    const line = JSON.parse(await gw.waitForOutput(/^.*"msg":"inbound message ignored".*$/m, 10_000)) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, channel: "telegram", chatId: "-100456", senderId: String(OWNER) });
    expect(line.reason).toMatch(/-100456 is not in the allowlist.*groups/);
    expect(gw.output()).not.toMatch(/"chatId":"-100123"/);
  });

  it("/stop aborts the running turn and says so", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "slow answer", delayMs: 5_000 }));
    await start();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "take your time", messageId: 1 });
    await waitUntil(() => chatRequests(servers.model).length === 1, 10_000, "model request");
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "/stop", messageId: 2 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length >= 1, 10_000);
    await sleep(500);
    expect(repliesTo(OWNER)).toEqual(["⏹ Stopped."]);
  });

  it("sends a 9,000-character reply in chunks under the limit, in order", async () => {
    await servers.startTelegram();
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: ${"lorem ipsum ".repeat(24).trim()}`);
    const long = paragraphs.join("\n\n");
    expect(long.length).toBeGreaterThan(9_000);
    servers.model.setResponder(() => ({ text: long }));
    await start();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "long please", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length >= 3, 10_000);
    await sleep(300);
    const chunks = repliesTo(OWNER);
    expect(chunks.length).toBe(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(4000);
    expect(chunks.join("\n\n").replace(/\s+/g, " ")).toBe(long.replace(/\s+/g, " "));
  });

  it("delivers a reply whose code block cannot be split with its fences (a run of blank lines longer than maxLinesPerMessage), and keeps running", async () => {
    await servers.startTelegram();
    const code = ["```", "first();", ...Array.from({ length: 40 }, () => ""), "last();", "```"].join("\n");
    servers.model.setResponder(() => ({ text: `Here:\n\n${code}` }));
    // Discord's default line limit, on Telegram's fake: the same chunker serves every channel.
    const gw = await start({ telegram: { maxLinesPerMessage: 17 } });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "code please", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).join("\n").includes("last();"), 10_000);
    const replies = repliesTo(OWNER);
    expect(replies.join("\n")).toContain("first();");
    servers.model.setResponder(() => ({ text: "still here" }));
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "are you alive?", messageId: 2 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).includes("still here"), 10_000);
    expect(gw.output()).toContain("split as plain lines");
  });

  it.each([
    { replyToMode: "first", quoting: [true, false, false] },
    { replyToMode: "all", quoting: [true, true, true] },
  ])("replyToMode $replyToMode quotes the user's message in chunks $quoting", async ({ replyToMode, quoting }) => {
    await servers.startTelegram();
    const long = Array.from({ length: 30 }, (_, i) => `Paragraph ${i}: ${"lorem ipsum ".repeat(24).trim()}`).join("\n\n");
    servers.model.setResponder(() => ({ text: long }));
    await start({ telegram: { replyToMode } });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "long please", messageId: 7 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length >= 3, 10_000);
    const quoted = servers.telegram.messages(OWNER).map((m) => (m.reply_parameters as { message_id?: number } | undefined)?.message_id === 7);
    expect(quoted).toEqual(quoting);
  });

  it("waits retry_after on a 429 and then delivers", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "after the wait" }));
    await start();
    servers.telegram.failNext("sendMessage", { status: 429, retryAfter: 1 });
    const sentAt = Date.now();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "hi", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 10_000);
    const delivered = servers.telegram.sent.find((c) => c.method === "sendMessage")!;
    expect(delivered.at - sentAt).toBeGreaterThanOrEqual(1_000);
    expect(repliesTo(OWNER)).toEqual(["after the wait"]);
  });

  it("a gateway killed between 'model finished' and 'sent' delivers the reply exactly once after restart", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "survives the crash" }));
    const stateDir = makeTempDir();
    const gw = await start({ stateDir });
    servers.telegram.hangNext("sendMessage");
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "remember me", messageId: 1 });
    await waitUntil(() => chatRequests(servers.model).length === 1, 10_000, "the model request");
    // The reply is recorded before it is sent, so the hung send proves it is on disk.
    await servers.telegram.waitFor(() => servers.telegram.calls.some((c) => c.method === "sendMessage" && c.status === 0), 10_000);
    await gw.stop("SIGKILL");
    servers.telegram.release();
    expect(repliesTo(OWNER)).toEqual([]);
    await start({ stateDir });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 10_000);
    await sleep(1_500);
    expect(repliesTo(OWNER)).toEqual(["survives the crash"]);
    expect(chatRequests(servers.model)).toHaveLength(1);
  });

  it("streaming.mode partial shows the reply while it is written, in one message edited in place", async () => {
    await servers.startTelegram();
    const answer = "The quick brown fox jumps over the lazy dog, again and again, until the reply is long enough to stream.";
    servers.model.setResponder(() => ({ text: answer, chunkDelayMs: 150 }));
    await start({ telegram: { streaming: { mode: "partial", throttleMs: 250 } } });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "stream it", messageId: 1 });
    const edits = () => servers.telegram.sent.filter((c) => c.method === "editMessageText" && String(c.body.chat_id) === String(OWNER));
    await servers.telegram.waitFor(() => edits().some((c) => c.body.text === answer), 10_000);
    await sleep(300);
    expect(repliesTo(OWNER)).toHaveLength(1);
    expect(repliesTo(OWNER)[0]!.length).toBeLessThan(answer.length);
    expect(edits().at(-1)!.body.text).toBe(answer);
  });

  it("streaming.mode block shows the reply in steps ending at sentence breaks, then the whole answer", async () => {
    await servers.startTelegram();
    const answer = "First comes a sentence. Then another one arrives. A third closes the reply at last.";
    servers.model.setResponder(() => ({ text: answer, textChunks: 12, chunkDelayMs: 120 }));
    await start({ telegram: { streaming: { mode: "block", throttleMs: 250, preview: { chunk: { minChars: 20, maxChars: 40 } } } } });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "stream it in blocks", messageId: 1 });
    const edits = () => servers.telegram.sent.filter((c) => c.method === "editMessageText" && String(c.body.chat_id) === String(OWNER)).map((c) => String(c.body.text));
    await servers.telegram.waitFor(() => edits().at(-1) === answer, 10_000);
    const drafts = [repliesTo(OWNER)[0]!, ...edits().slice(0, -1)];
    expect(drafts[0]).toBe("First comes a sentence.");
    // Every step is the answer so far, ended at a break (a space follows in the answer), and grew by at least minChars.
    drafts.forEach((draft, i) => {
      expect(answer.startsWith(draft)).toBe(true);
      expect(answer[draft.length]).toBe(" ");
      if (i > 0) expect(draft.length - drafts[i - 1]!.length).toBeGreaterThanOrEqual(20);
    });
    expect(repliesTo(OWNER)).toHaveLength(1);
  });

  it("streaming.mode partial shows a line per tool call while tools run, then the answer replaces the draft", async () => {
    await servers.startTelegram();
    servers.model.enqueue(
      { text: "Checking the file.", toolCalls: [{ name: "read", arguments: { path: "notes.md" } }], chunkDelayMs: 100 },
      { text: "It says hello.", delayMs: 1_500 },
    );
    await start({ telegram: { streaming: { mode: "partial", throttleMs: 250 } } });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "what does it say?", messageId: 1 });
    const edits = () => servers.telegram.sent.filter((c) => c.method === "editMessageText" && String(c.body.chat_id) === String(OWNER)).map((c) => String(c.body.text));
    const drafts = () => [...repliesTo(OWNER).slice(0, 1), ...edits()];
    await servers.telegram.waitFor(() => drafts().includes("Checking the file.\n\n• 📖 Read: notes.md"), 10_000);
    await servers.telegram.waitFor(() => edits().at(-1) === "It says hello.", 10_000);
    expect(repliesTo(OWNER)).toHaveLength(1);
  });

  it("the agent's message tool posts to the conversation, and a final reply repeating it is not sent twice", async () => {
    await servers.startTelegram();
    servers.model.enqueue(
      { toolCalls: [{ name: "message", arguments: { message: "Working on it…" } }] },
      { toolCalls: [{ name: "message", arguments: { message: "All done." } }] },
      { text: "All done." },
    );
    await start();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "do the thing", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length >= 2, 10_000);
    await waitUntil(() => chatRequests(servers.model).length === 3, 10_000, "the third model call");
    await sleep(500);
    expect(repliesTo(OWNER)).toEqual(["Working on it…", "All done."]);
  });

  it("a sub-agent spawned from a Telegram DM is announced to its parent, whose answer goes back to the chat", async () => {
    await servers.startTelegram();
    servers.model.setResponder((req) => {
      if (isSubagentRequest(req)) return { text: "The answer is 42." };
      const last = lastMessageOf(req);
      if (last.role === "user" && last.text.includes("find the answer")) return { toolCalls: [{ name: "sessions_spawn", arguments: { task: "Find the answer." } }] };
      if (last.role === "tool") return { text: "I asked a helper." };
      if (last.text.includes("<<<BEGIN_UNTRUSTED_CHILD_RESULT>>>")) return { text: "My helper says: 42." };
      return { text: "?" };
    });
    await start();
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "please find the answer", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length >= 2, 15_000);
    await sleep(500);
    expect(repliesTo(OWNER)).toEqual(["I asked a helper.", "My helper says: 42."]);
  });

  it("keeps a typing indicator alive while the agent works", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "thought about it", delayMs: 2_500 }));
    await start({ telegram: { typingIntervalSeconds: 1 } });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "think hard", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(OWNER).length === 1, 10_000);
    const typing = servers.telegram.sent.filter((c) => c.method === "sendChatAction" && String(c.body.chat_id) === String(OWNER));
    expect(typing.length).toBeGreaterThanOrEqual(2);
    expect(typing.every((c) => c.body.action === "typing")).toBe(true);
    const replyAt = servers.telegram.sent.find((c) => c.method === "sendMessage")!.at;
    await sleep(1_500);
    expect(servers.telegram.sent.filter((c) => c.method === "sendChatAction" && c.at > replyAt + 100)).toEqual([]);
  });

  it("sends on demand: the send method (idempotent), openclaw message send, channel state in health, pairing methods", async () => {
    await servers.startTelegram();
    const gw = await start();
    const { sock } = await openOperator(gw.url, gw.token);
    try {
      const first = await sock.request("send", { channel: "telegram", to: "4242", message: "**backup** done", idempotencyKey: "send-1" });
      expect(first.ok).toBe(true);
      expect(first.payload).toMatchObject({ channel: "telegram", accountId: "default", chatId: "4242" });
      const again = await sock.request("send", { channel: "telegram", to: "4242", message: "**backup** done", idempotencyKey: "send-1" });
      expect(again.payload.messageIds).toEqual(first.payload.messageIds);
      expect(servers.telegram.messages(4242)).toHaveLength(1);
      expect(servers.telegram.messages(4242)[0]).toMatchObject({ text: "<b>backup</b> done", parse_mode: "HTML" });

      const badChannel = await sock.request("send", { channel: "fax", to: "1", message: "x", idempotencyKey: "send-2" });
      expect(badChannel.ok).toBe(false);
      expect(badChannel.error.message).toContain('unknown channel "fax"');

      // "connected" once the first long poll has been answered.
      let health = await sock.request("health", {});
      for (let i = 0; i < 50 && !health.payload.channels.telegram?.connected; i++) {
        await sleep(100);
        health = await sock.request("health", {});
      }
      expect(health.payload.channelOrder).toEqual(["telegram"]);
      expect(health.payload.channels.telegram).toMatchObject({ configured: true, running: true, connected: true, lastError: null });

      servers.telegram.pushMessage({ chatId: 555, fromId: 555, text: "hello", messageId: 1 });
      await servers.telegram.waitFor(() => repliesTo(555).length === 1, 10_000);
      const pending = await sock.request("pairing.list", { channel: "telegram" });
      const code = pending.payload.requests[0].code as string;
      expect(pending.payload.requests[0]).toMatchObject({ senderId: "555", accountId: "default" });
      const wrong = await sock.request("pairing.approve", { channel: "telegram", code: "ZZZZZZZZ" });
      expect(wrong.ok).toBe(false);
      const approved = await sock.request("pairing.approve", { channel: "telegram", code });
      expect(approved.payload.approved).toMatchObject({ senderId: "555" });
    } finally {
      sock.close();
    }
    const cli = await runCli(["message", "send", "--channel", "telegram", "--target", "4243", "--message", "from the CLI"], {
      OPENCLAW_STATE_DIR: gw.stateDir,
      OPENCLAW_GATEWAY_TOKEN: gw.token,
      OPENCLAW_GATEWAY_PORT: String(gw.port),
    });
    expect(cli.code).toBe(0);
    expect(cli.output).toContain("Sent to telegram 4243");
    expect(repliesTo(4243)).toEqual(["from the CLI"]);
  });

  it("channels status shows each account's name (its own, else the channel's) and the configured defaultAccount", async () => {
    await servers.startTelegram();
    // The token sits in accounts.home: at the top of the block it would run as one more account, "default".
    const telegram = {
      botToken: undefined,
      name: "Family bot",
      defaultAccount: "home",
      accounts: { alerts: { name: "Alerts", enabled: false }, home: { botToken: servers.telegram.token } },
    };
    const gw = await start({ telegram });
    const env = { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) };
    const json = JSON.parse((await runCli(["channels", "status", "--json"], env)).output);
    expect(json.channelAccounts.telegram).toEqual([
      expect.objectContaining({ accountId: "alerts", name: "Alerts", enabled: false }),
      expect.objectContaining({ accountId: "home", name: "Family bot", enabled: true }),
    ]);
    expect(json.channelDefaultAccountId).toEqual({ telegram: "home" });
    const text = await runCli(["channels", "status"], env);
    expect(text.output).toMatch(/^telegram\/alerts "Alerts": stopped/m);
    expect(text.output).toMatch(/^telegram\/home "Family bot": /m);
  });

  it("without messages.ackReaction, the ack reaction is the routed agent's identity.emoji", async () => {
    await servers.startTelegram({ botUsername: "claw_bot" });
    servers.model.setResponder(() => ({ text: "on it" }));
    const stateDir = makeTempDir();
    await start({
      stateDir,
      extra: {
        agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } }, entries: { main: { identity: { emoji: "🦞" } } } },
        messages: { ackReactionScope: "direct" },
      },
    });
    servers.telegram.pushMessage({ chatId: OWNER, fromId: OWNER, text: "please look", messageId: 21 });
    await servers.telegram.waitFor(() => servers.telegram.sent.some((c) => c.method === "setMessageReaction" && Number(c.body.message_id) === 21), 10_000);
    const reaction = servers.telegram.sent.find((c) => c.method === "setMessageReaction")!;
    expect(JSON.stringify(reaction.body.reaction)).toContain("🦞");
  });

  it("bindings route a peer to its agent", async () => {
    await servers.startTelegram();
    servers.model.setResponder(() => ({ text: "routed" }));
    const stateDir = makeTempDir();
    const gw = await start({
      stateDir,
      telegram: { allowFrom: [String(OWNER), "333"] },
      extra: {
        agents: { defaults: { workspace: path.join(stateDir, "workspace"), model: { primary: "fake/fake-model" } }, list: [{ id: "main", default: true }, { id: "home" }] },
        bindings: [{ agentId: "home", match: { channel: "telegram", peer: { kind: "direct", id: "333" } } }],
      },
    });
    servers.telegram.pushMessage({ chatId: 333, fromId: 333, text: "which agent?", messageId: 1 });
    await servers.telegram.waitFor(() => repliesTo(333).length === 1, 10_000);
    expect(repliesTo(333)).toEqual(["routed"]);
    const sessions = await runCli(["sessions", "--json"], { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });
    const keys = (JSON.parse(sessions.output).sessions as { key: string }[]).map((s) => s.key);
    expect(keys).toContain("agent:home:main");
    expect(keys).not.toContain("agent:main:main");
    const status = await runCli(["channels", "status", "--json"], { OPENCLAW_STATE_DIR: gw.stateDir, OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) });
    expect(JSON.parse(status.output).channelAccounts.telegram[0]).toMatchObject({ accountId: "default", running: true, connected: true });
  });
});

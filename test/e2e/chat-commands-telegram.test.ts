import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { lastUserText } from "../helpers/reliability.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/** The gateway's chat commands in a Telegram DM and group (the same registry as chat.send). */
const OWNER = 777;
const GROUP = -100777;
let model: FakeModelServer;
let telegram: FakeTelegram;
let gw: GatewayProcess;
let messageId = 1;

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `model: ${lastUserText(req)}`, usage: { input: 900, output: 20 } }));
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  const stateDir = makeTempDir();
  const customCommands = [
    { command: "/Backup", description: "Git backup" },
    { command: "status", description: "hides a chat command" },
    { command: "bad-name!", description: "not a Telegram name" },
    { command: "backup", description: "listed twice" },
  ];
  const telegramConfig = telegramChannelConfig(telegram, { allowFrom: [String(OWNER)], groups: { "*": {} }, customCommands });
  for (const [name, invocable] of [
    ["haiku", true],
    ["secret-ops", false],
    ["status", true],
  ] as const) {
    const dir = path.join(stateDir, "workspace", "skills", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Use when asked for a ${name}.\n${invocable ? "" : "user-invocable: false\n"}---\nWrite it.\n`);
  }
  gw = await startGateway({
    stateDir,
    configFile: {
      name: "openclaw.json",
      content: fakeModelConfig(model, stateDir, { channels: { telegram: telegramConfig }, messages: { ackReaction: "👀" }, session: { resetTriggers: ["start over"] } }),
    },
  });
  await gw.waitForOutput(/channel account started/, 10_000);
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await telegram?.close();
  await model?.close();
});

const repliesIn = (chatId: number) => telegram.messages(chatId).map((m) => String(m.text));

async function say(chatId: number, text: string, count = 1): Promise<string[]> {
  const before = repliesIn(chatId).length;
  telegram.pushMessage({ chatId, fromId: OWNER, fromName: "Owner", text, messageId: messageId++ });
  await telegram.waitFor(() => repliesIn(chatId).length >= before + count, 15_000);
  return repliesIn(chatId).slice(before);
}

describe("chat commands in Telegram", () => {
  it("/status shows the card with tokens and context; /usage and /context answer from the row", async () => {
    expect(await say(OWNER, "hello")).toEqual(["model: hello"]);
    const [card] = await say(OWNER, "/status");
    expect(card).toContain("Model: fake/fake-model · last answer from fake/fake-model");
    expect(card).toContain("Tokens: 900 in / 20 out · cache 0 read / 0 write");
    expect(card).toMatch(/Context: [\d.k]+ \/ 120k \(\d+%\)/);
    expect(card).toContain("Cost: unknown (no cost configured for the model)");
    expect(card).toContain("Queue: default · run idle");
    expect((await say(OWNER, "/usage cost"))[0]).toContain("Tokens: 900 in / 20 out");
    expect((await say(OWNER, "/context"))[0]).toMatch(/^Context · fake\/fake-model\nIn use: /);
  });

  it("/new <model> checks the model first; /steer needs a running reply; /approve names what it could not find", async () => {
    expect((await say(OWNER, "/new nope/none"))[0]).toMatch(/nope/);
    expect((await say(OWNER, "/status"))[0]).toContain("Tokens: 900 in");
    await say(OWNER, "/new fake/fake-model");
    const [card] = await say(OWNER, "/status");
    expect(card).toContain("Model: fake/fake-model (chosen with /model)");
    expect(card).toContain("Tokens: 0 in / 0 out");
    expect(card).toContain("Session: 0 messages");
    expect(await say(OWNER, "/steer go left")).toEqual(["Nothing is running to steer; send it as a normal message."]);
    expect(await say(OWNER, "/approve 1234 deny")).toEqual(["No pending approval 1234 (it was answered already or expired)."]);
    expect(await say(OWNER, "/approve 1234 maybe")).toEqual(['Unknown decision "maybe". Use allow-once, allow-always or deny.']);
  });

  it("/new and /reset with a message, and a session.resetTriggers phrase, start over and answer that message in the new session", async () => {
    await say(OWNER, "remember this");
    expect(await say(OWNER, "/new fake/fake-model what is 2+2")).toEqual(["model: what is 2+2"]);
    let [card] = await say(OWNER, "/status");
    expect(card).toContain("Model: fake/fake-model (chosen with /model)");
    expect(card).toContain("Session: 2 messages");
    expect(await say(OWNER, "/reset tell me a joke")).toEqual(["model: tell me a joke"]);
    expect((await say(OWNER, "/status"))[0]).toContain("Session: 2 messages");
    // Not a model: the whole text is the first message.
    expect(await say(OWNER, "/new hello again")).toEqual(["model: hello again"]);
    expect(await say(OWNER, "Start over and say hi")).toEqual(["model: and say hi"]);
    [card] = await say(OWNER, "/status");
    expect(card).toContain("Session: 2 messages");
    expect(await say(OWNER, "start over")).toEqual(["✅ New session started."]);
    expect((await say(OWNER, "/status"))[0]).toContain("Session: 0 messages");
    // The phrase must be the start of the message, followed by a space.
    expect(await say(OWNER, "start overly long")).toEqual(["model: start overly long"]);
  });

  it("/activation always answers every group message without a mention; /activation mention goes back", async () => {
    expect(await say(GROUP, "/activation always")).toEqual(["Activation: always — every message in this group is answered."]);
    expect(await say(GROUP, "anyone there")).toEqual(["model: [Owner] anyone there"]);
    expect(await say(GROUP, "/activation mention")).toEqual(["Activation: mention — only messages that mention the bot are answered."]);
    const before = model.requests.length;
    telegram.pushMessage({ chatId: GROUP, fromId: OWNER, fromName: "Owner", text: "not for the bot", messageId: messageId++ });
    // A later message that is answered proves the earlier one was read and ignored.
    expect(await say(GROUP, "/status")).toEqual([expect.stringContaining("Status")]);
    expect(model.requests.length).toBe(before);
  });
});

describe("/skill", () => {
  it("hands the agent a user-invocable skill with the input; others are not offered", async () => {
    const [answer] = await say(OWNER, "/skill haiku about lobsters");
    expect(answer).toMatch(/^model: Use the skill "haiku": read .*skills\/haiku\/SKILL\.md first and follow it\.\n\nabout lobsters$/);
    // The bundled skills are offered too; the one marked user-invocable: false is not.
    const [refused] = await say(OWNER, "/skill secret-ops");
    expect(refused).toMatch(/^No skill "secret-ops" for this agent\. Skills: haiku, /);
    expect(refused.split("Skills: ")[1]).not.toContain("secret-ops");
    // Replies go out as Telegram HTML, so the placeholder's brackets arrive escaped.
    expect((await say(OWNER, "/skill"))[0]).toMatch(/^Usage: \/skill &lt;name&gt; \[input\]\. Skills: haiku, /);
  });
});

describe("ack reactions", () => {
  it("react to an accepted group message that mentions the bot (messages.ackReactionScope: group-mentions), not to DMs", async () => {
    const reactions = () => telegram.sent.filter((c) => c.method === "setMessageReaction");
    const mentionId = messageId++;
    const before = repliesIn(GROUP).length;
    telegram.pushMessage({ chatId: GROUP, fromId: OWNER, fromName: "Owner", text: "@claw_bot ping", messageId: mentionId, entities: [{ type: "mention", offset: 0, length: 9 }] });
    await telegram.waitFor(() => repliesIn(GROUP).length > before, 15_000);
    await telegram.waitFor(() => reactions().some((c) => Number(c.body.message_id) === mentionId), 15_000);
    const reaction = reactions().find((c) => Number(c.body.message_id) === mentionId)!;
    expect(String(reaction.body.chat_id)).toBe(String(GROUP));
    expect(JSON.stringify(reaction.body.reaction)).toContain("👀");
    const dmIds = telegram.messages(OWNER).length;
    expect(dmIds).toBeGreaterThan(0);
    expect(reactions().every((c) => String(c.body.chat_id) === String(GROUP))).toBe(true);
  });
});

describe("Telegram's command menu", () => {
  it("is set from the same registry when the account connects (commands.native: auto)", () => {
    const set = telegram.calls.filter((c) => c.method === "setMyCommands");
    expect(set.length).toBeGreaterThanOrEqual(1);
    const commands = (typeof set[0]!.body.commands === "string" ? JSON.parse(set[0]!.body.commands) : set[0]!.body.commands) as { command: string; description: string }[];
    expect(commands.map((c) => c.command)).toEqual(expect.arrayContaining(["stop", "new", "status", "usage", "whoami", "queue", "activation", "focus"]));
    expect(commands.find((c) => c.command === "queue")!.description).toBe(
      "<mode> — how messages sent during a reply are handled: steer | followup | collect | interrupt | default (owner only)",
    );
    expect(commands.every((c) => /^[a-z0-9_]{1,32}$/.test(c.command) && c.description.length <= 256)).toBe(true);
  });

  it("lists each user-invocable skill by its own command after the chat commands (commands.nativeSkills), a name a chat command has getting _2", () => {
    const set = telegram.calls.filter((c) => c.method === "setMyCommands");
    const commands = (typeof set[0]!.body.commands === "string" ? JSON.parse(set[0]!.body.commands) : set[0]!.body.commands) as { command: string; description: string }[];
    const names = commands.map((c) => c.command);
    expect(names.slice(names.indexOf("haiku"), names.indexOf("haiku") + 2)).toEqual(["haiku", "status_2"]);
    expect(commands.find((c) => c.command === "haiku")!.description).toBe("Use when asked for a haiku.");
    expect(names).not.toContain("secret_ops");
    expect(names.indexOf("haiku")).toBeGreaterThan(names.indexOf("focus"));
  });

  it("runs a skill by its own command as /skill does; a skill not user-invocable is plain text", async () => {
    const [answer] = await say(OWNER, "/haiku about rain");
    expect(answer).toMatch(/^model: Use the skill "haiku": read .*skills\/haiku\/SKILL\.md first and follow it\.\n\nabout rain$/);
    expect((await say(OWNER, "/status_2"))[0]).toMatch(/^model: Use the skill "status": read .*skills\/status\/SKILL\.md first and follow it\.$/);
    expect(await say(OWNER, "/secret-ops now")).toEqual(["model: /secret-ops now"]);
  });

  it("adds the account's customCommands after the chat commands, skipping each bad entry with its reason; a typed one reaches the agent", async () => {
    const set = telegram.calls.filter((c) => c.method === "setMyCommands");
    const commands = (typeof set[0]!.body.commands === "string" ? JSON.parse(set[0]!.body.commands) : set[0]!.body.commands) as { command: string; description: string }[];
    expect(commands.at(-1)).toEqual({ command: "backup", description: "Git backup" });
    expect(commands.filter((c) => c.command === "backup" || c.command === "status")).toHaveLength(2);
    expect(commands.find((c) => c.command === "status")!.description).not.toBe("hides a chat command");
    const skipped = gw
      .output()
      .split("\n")
      .filter((line) => line.includes("telegram customCommands entry skipped"));
    expect(skipped.map((line) => JSON.parse(line).reason)).toEqual([
      '"status": /status is a chat command of the gateway',
      '"bad-name!": a Telegram command is 1-32 of a-z, 0-9 and _',
      '"backup": /backup is listed twice',
    ]);
    expect(await say(OWNER, "/backup now")).toEqual(["model: /backup now"]);
  });

  it("/usage tokens puts the turn's usage under each reply, /usage with no argument goes on to the next mode, /usage reset ends it", async () => {
    expect(await say(OWNER, "/usage tokens")).toEqual(["Usage footer: tokens."]);
    expect(await say(OWNER, "with a footer")).toEqual(["model: with a footer\nUsage: 900 in / 20 out"]);
    // `full` adds the estimated cost, which needs the model's configured price: this one has none.
    expect(await say(OWNER, "/usage")).toEqual(["Usage footer: full."]);
    expect(await say(OWNER, "priced?")).toEqual(["model: priced?\nUsage: 900 in / 20 out"]);
    expect(await say(OWNER, "/usage reset")).toEqual(["Usage footer: back to the default (messages.responseUsage)."]);
    expect(await say(OWNER, "without")).toEqual(["model: without"]);
    expect(await say(OWNER, "/usage sometimes")).toEqual(["Usage: /usage off|tokens|full|reset|cost"]);
  });
});

describe("/goal", () => {
  it("starts the chat session's goal (the agent gets the objective after the active-goal line), shows, pauses and clears it", async () => {
    const [started] = await say(OWNER, "/goal tidy the garage");
    expect(started).toMatch(/^model: Active goal: tidy the garage — [^\n]*\n\ntidy the garage$/);
    expect((await say(OWNER, "/goal"))[0]).toContain("Status: active");
    expect(await say(OWNER, "/goal pause rain")).toEqual(["Goal paused: tidy the garage"]);
    expect(await say(OWNER, "after the rain")).toEqual(["model: after the rain"]);
    expect(await say(OWNER, "/goal clear")).toEqual(["Goal cleared."]);
  });
});

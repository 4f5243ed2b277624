import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-server.js";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { chatRequests, lastUserText, waitUntil } from "../helpers/reliability.js";

/**
 * Discord application (slash) commands end to end: the real discord.js client registers the chat
 * command registry with the fake Discord when it is READY, and answers each interaction the way
 * Discord expects (a deferred answer within 3 s, then the command's reply edits it).
 */
const BOT = "100000000000001800";
const GUILD = "100000000000001900";
const CHANNEL = "100000000000001901";
const OWNER = "100000000000001110";
const OWNER_DM = "100000000000001710";
const MEMBER = "100000000000001333";

let model: FakeModelServer;
let discord: FakeDiscord;
let gw: GatewayProcess;
let stateDir: string;

function configFor(discordExtra: Record<string, unknown> = {}): string {
  const discordConfig = { token: discord.token, restApiUrl: discord.restUrl, typingIntervalSeconds: 0, allowFrom: [OWNER], guilds: { [GUILD]: {} }, ...discordExtra };
  return fakeModelConfig(model, stateDir, { channels: { discord: discordConfig }, commands: { native: "auto" } });
}

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
  discord = await startFakeDiscord({ botId: BOT, botName: "clawbot", guilds: [{ id: GUILD, name: "Claw Guild", channels: [{ id: CHANNEL, name: "general", type: 0 }] }] });
  stateDir = makeTempDir();
  const skillDir = path.join(stateDir, "workspace", "skills", "haiku");
  fs.mkdirSync(skillDir, { recursive: true });
  fs.writeFileSync(path.join(skillDir, "SKILL.md"), "---\nname: haiku\ndescription: Use when asked for a haiku.\n---\nWrite one.\n");
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content: configFor() } });
  await waitUntil(() => discord.registeredCommands().length > 0, 15_000, "the application commands");
});
afterAll(async () => {
  await gw?.stop("SIGKILL");
  await discord?.close();
  await model?.close();
});

/** Runs a slash command and waits for its answer (the edit of the deferred response). */
async function run(input: Parameters<FakeDiscord["pushCommand"]>[0]): Promise<{ id: string; reply: string }> {
  const id = discord.pushCommand(input);
  await waitUntil(() => discord.interactionReplies(id).some((r) => r.kind === "original"), 15_000, `the answer to /${input.name}`);
  return { id, reply: discord.interactionReplies(id).find((r) => r.kind === "original")!.content! };
}

describe("Discord application commands", () => {
  it("registers the chat command registry, with an `args` option where a command takes arguments", () => {
    const commands = discord.registeredCommands() as Array<{ name: string; description: string; options?: Array<{ name: string; type: number; required: boolean }> }>;
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(["help", "new", "reset", "stop", "status", "whoami", "queue", "usage"]));
    expect(commands.every((c) => c.description.length >= 1 && c.description.length <= 100)).toBe(true);
    expect(commands.find((c) => c.name === "queue")!.options).toEqual([expect.objectContaining({ name: "args", type: 3, required: false })]);
    expect(commands.find((c) => c.name === "status")!.options).toBeUndefined();
    // Discord's client has its own /tts: ours is /voice there, as in OpenClaw.
    expect(commands.map((c) => c.name)).toContain("voice");
    expect(commands.map((c) => c.name)).not.toContain("tts");
    // commands.nativeSkills (auto): the agent's skill, by its own command, after the chat commands.
    const haiku = commands.findIndex((c) => c.name === "haiku");
    expect(commands[haiku]).toMatchObject({ name: "haiku", description: "Use when asked for a haiku.", options: [expect.objectContaining({ name: "args", required: false })] });
    expect(haiku).toBeGreaterThan(commands.findIndex((c) => c.name === "usage"));
  });

  it("answers /whoami in a DM by deferring at once and then editing the deferred answer", async () => {
    const { id, reply } = await run({ channelId: OWNER_DM, userId: OWNER, userName: "Owner", name: "whoami" });
    const replies = discord.interactionReplies(id);
    expect(replies[0]).toEqual(expect.objectContaining({ kind: "callback", type: 5 }));
    expect(reply).toContain(`Your id: ${OWNER}`);
    expect(reply).toContain("Owner: yes");
    // The command never reached the model, and nothing went to the channel as a plain message.
    expect(chatRequests(model)).toHaveLength(0);
    expect(discord.messages(OWNER_DM)).toEqual([]);
  });

  it("runs a command with arguments in a guild channel without an @mention, and its effect shows in /status", async () => {
    const set = await run({ channelId: CHANNEL, guildId: GUILD, userId: OWNER, userName: "Owner", name: "queue", args: "collect" });
    expect(set.reply).toBe("Queue mode for this session: collect.");
    const status = await run({ channelId: CHANNEL, guildId: GUILD, userId: MEMBER, userName: "Member", name: "status" });
    expect(status.reply).toMatch(/queue[^\n]*collect/i);
    expect(discord.unhandledRoutes).toEqual([]);
  });

  it("refuses an owner-only command to someone else, in the same interaction", async () => {
    const { reply } = await run({ channelId: CHANNEL, guildId: GUILD, userId: MEMBER, userName: "Member", name: "queue", args: "steer" });
    expect(reply).toMatch(/owner/i);
  });

  it("an answer in several parts edits the deferred answer with the first and follows up with the rest", async () => {
    // 20 lines: two parts at 17 lines a message.
    const poem = Array.from({ length: 20 }, (_, i) => `line ${i + 1} of a long poem`).join("\n");
    model.setResponder(() => ({ text: poem }));
    const id = discord.pushCommand({ channelId: OWNER_DM, userId: OWNER, userName: "Owner", name: "skill", args: "haiku" });
    await waitUntil(() => discord.interactionReplies(id).length >= 3 || discord.messages(OWNER_DM).length > 0, 15_000, "both parts of the answer");
    const replies = discord.interactionReplies(id);
    expect(replies.map((r) => r.kind)).toEqual(["callback", "original", "followup"]);
    expect(`${replies[1]!.content}\n${replies[2]!.content}`).toBe(poem);
    expect(discord.messages(OWNER_DM)).toEqual([]);
  });

  it("a command still deferred when a config reload restarts the account is answered in its interaction by the new run", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    model.setResponder(async (req) => {
      if (lastUserText(req).includes("about ponds")) await held;
      return { text: "an old silent pond" };
    });
    const identified = discord.identifyCount;
    const id = discord.pushCommand({ channelId: OWNER_DM, userId: OWNER, userName: "Owner", name: "skill", args: "haiku about ponds" });
    await waitUntil(() => chatRequests(model).some((r) => lastUserText(r).includes("about ponds")), 15_000, "the skill's model request");
    expect(discord.interactionReplies(id)).toEqual([expect.objectContaining({ kind: "callback", type: 5 })]);
    // The reload restarts the account (a new client, a new gateway session) while the command waits.
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), configFor({ name: "Claw" }));
    await waitUntil(() => discord.identifyCount > identified, 15_000, "the restarted account's IDENTIFY");
    await gw.waitForOutput(/channel config changed; restarting the account/, 5_000);
    answer();
    await waitUntil(() => discord.interactionReplies(id).some((r) => r.kind === "original"), 15_000, "the deferred answer's edit");
    expect(discord.interactionReplies(id).find((r) => r.kind === "original")!.content).toBe("an old silent pond");
    expect(discord.messages(OWNER_DM)).toEqual([]);
  });
  it("the account's own commands.nativeSkills: false, set by a reload, registers the chat commands without the skill", async () => {
    const identified = discord.identifyCount;
    fs.writeFileSync(path.join(stateDir, "openclaw.json"), configFor({ commands: { nativeSkills: false } }));
    await waitUntil(() => discord.identifyCount > identified, 15_000, "the restarted account's IDENTIFY");
    await waitUntil(() => !discord.registeredCommands().some((c) => (c as { name: string }).name === "haiku"), 15_000, "the menu without the skill");
    const names = (discord.registeredCommands() as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["help", "status", "whoami", "skill"]));
    for (const skill of ["haiku", "workspace_notes", "gateway_diagnostics"]) expect(names).not.toContain(skill);
  });
});

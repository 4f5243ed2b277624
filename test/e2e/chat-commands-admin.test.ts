import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModelServer, type FakeModelServer } from "../fakes/model-server.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-server.js";
import { startFakeDiscord, type FakeDiscord } from "../fakes/discord-server.js";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server.js";
import { fakeModelConfig } from "../helpers/fake-model-config.js";
import { makeTempDir, startGateway, type GatewayProcess } from "../helpers/gateway-process.js";
import { lastUserText, waitUntil } from "../helpers/reliability.js";
import { openOperator, type TestSocket } from "../helpers/ws-client.js";
import { slackChannelConfig } from "../helpers/slack-channel-config.js";
import { telegramChannelConfig } from "../helpers/telegram-channel-config.js";

/**
 * The owner's administration commands — /config, /allowlist, /bash (`! cmd`), /restart — on every
 * surface of one gateway: chat.send (WebChat and the TUI), Telegram, Discord and Slack fakes.
 * Owners are named in commands.ownerAllowFrom; a guest may talk to the bot but not administer it.
 */

const TG_OWNER = 777;
const TG_GUEST = 778;
const TG_NEWCOMER = 779;
const DC_BOT = "100000000000000800";
const DC_OWNER = "100000000000000111";
const DC_OWNER_DM = "100000000000000711";
const SLACK_OWNER = "U100";
const SLACK_DM = "D100";
const SECRET_KEY = "sk-fake";

let model: FakeModelServer;
let telegram: FakeTelegram;
let discord: FakeDiscord;
let slack: FakeSlack;
let gw: GatewayProcess;
let sock: TestSocket;
let configPath: string;
let messageId = 1;

beforeAll(async () => {
  model = await startFakeModelServer();
  model.setResponder((req) => ({ text: `model: ${lastUserText(req)}` }));
  telegram = await startFakeTelegram({ botUsername: "claw_bot" });
  discord = await startFakeDiscord({ botId: DC_BOT, botName: "clawbot" });
  slack = await startFakeSlack();
  const stateDir = makeTempDir();
  configPath = path.join(stateDir, "openclaw.json");
  const channels = {
    telegram: telegramChannelConfig(telegram, { dmPolicy: "allowlist", allowFrom: [String(TG_OWNER), String(TG_GUEST)] }),
    discord: { token: discord.token, restApiUrl: discord.restUrl, typingIntervalSeconds: 0, allowFrom: [DC_OWNER] },
    slack: slackChannelConfig(slack, { allowFrom: [SLACK_OWNER] }),
  };
  const content = fakeModelConfig(model, stateDir, {
    channels,
    commands: { config: true, mcp: true, bash: true, bashForegroundMs: 30_000, ownerAllowFrom: [`telegram:${TG_OWNER}`, `discord:${DC_OWNER}`, `slack:${SLACK_OWNER}`] },
    tools: { exec: { security: "allowlist", ask: "on-miss", allowlist: ["echo"] } },
  });
  gw = await startGateway({ stateDir, configFile: { name: "openclaw.json", content } });
  await waitUntil(() => (gw.output().match(/channel account started/g) ?? []).length >= 2, 30_000, "the channel accounts");
  await gw.waitForOutput(/Slack Socket Mode connected/, 15_000);
  await waitUntil(() => discord.identifyCount === 1, 15_000, "the Discord IDENTIFY");
  sock = (await openOperator(gw.url, gw.token)).sock;
});
afterAll(async () => {
  sock?.close();
  await gw?.stop("SIGKILL");
  await Promise.all([telegram?.close(), discord?.close(), slack?.close(), model?.close()]);
});

const fileConfig = () => JSON.parse(fs.readFileSync(configPath, "utf8"));

/** A chat.send of `message`; resolves to the command's reply text (from the acknowledgement). */
async function operatorSays(message: string, socket: TestSocket = sock): Promise<string> {
  const res = await socket.request("chat.send", { sessionKey: "agent:main:main", message, idempotencyKey: randomUUID(), deliver: false });
  expect(res.ok).toBe(true);
  return String(res.payload.reply);
}

async function telegramSays(fromId: number, text: string): Promise<string> {
  const before = telegram.messages(fromId).length;
  telegram.pushMessage({ chatId: fromId, fromId, fromName: "Someone", text, messageId: messageId++ });
  await telegram.waitFor(() => telegram.messages(fromId).length > before, 20_000);
  return String(telegram.messages(fromId)[before]!.text);
}

async function discordSays(content: string): Promise<string> {
  const before = discord.messages(DC_OWNER_DM).length;
  discord.pushMessage({ channelId: DC_OWNER_DM, authorId: DC_OWNER, authorName: "Owner", content });
  await waitUntil(() => discord.messages(DC_OWNER_DM).length > before, 20_000, "the Discord reply");
  return discord.messages(DC_OWNER_DM)[before]!.content;
}

async function slackSays(text: string): Promise<string> {
  const inDm = () => slack.posted.filter((p) => p.channel === SLACK_DM);
  const before = inDm().length;
  slack.pushMessage({ channel: SLACK_DM, channelType: "im", user: SLACK_OWNER, text });
  await waitUntil(() => inDm().length > before, 20_000, "the Slack reply");
  return inDm()[before]!.text;
}

/** The Slack DM message posted after the one reading `after`. */
async function slackPost(after: string): Promise<string> {
  const inDm = () => slack.posted.filter((p) => p.channel === SLACK_DM).map((p) => p.text);
  await waitUntil(() => inDm().indexOf(after) >= 0 && inDm().length > inDm().indexOf(after) + 1, 20_000, "the late Slack post");
  return inDm()[inDm().indexOf(after) + 1]!;
}

describe("/config", () => {
  it("shows keys with secrets hidden, sets and unsets through the validated write, and refuses what does not validate", async () => {
    const shown = await operatorSays("/config show models.providers.fake");
    expect(shown).toContain('"apiKey": "[hidden]"');
    expect(shown).not.toContain(SECRET_KEY);
    expect(await operatorSays("/config get commands.bash")).toBe("commands.bash =:\ntrue");

    expect(await operatorSays("/config set agents.defaults.thinkingDefault=low")).toBe('Set agents.defaults.thinkingDefault = "low". Applied.');
    expect(fileConfig().agents.defaults.thinkingDefault).toBe("low");
    const got = await sock.request("config.get", {});
    expect(got.payload.parsed.agents.defaults.thinkingDefault).toBe("low");

    const before = fs.readFileSync(configPath, "utf8");
    expect(await operatorSays("/config set agents.defaults.thinkingDefault=loud")).toMatch(/^Config not changed: agents\.defaults\.thinkingDefault: /);
    expect(await telegramSays(TG_OWNER, "/config set gateway.port=eighty")).toMatch(/^Config not changed: gateway\.port/);
    expect(await operatorSays("/config set gatway.port=1")).toMatch(/^Config not changed: gatway: not a config key this gateway knows; did you mean "gateway"\?/);
    expect(fs.readFileSync(configPath, "utf8")).toBe(before);

    expect(await discordSays("/config unset agents.defaults.thinkingDefault")).toBe("Removed agents.defaults.thinkingDefault. Applied.");
    expect(fileConfig().agents.defaults.thinkingDefault).toBeUndefined();
    expect(await slackSays("/config set models.providers.fake.apiKey=sk-other")).toBe("Set models.providers.fake.apiKey = [hidden]. Applied.");
    expect(fileConfig().models.providers.fake.apiKey).toBe("sk-other");
    expect(await slackSays(`/config set models.providers.fake.apiKey=${SECRET_KEY}`)).toBe("Set models.providers.fake.apiKey = [hidden]. Applied.");
    expect(gw.output()).not.toContain("sk-other");
  });

  it("is the owner's: a guest is refused, and a client without operator.admin may read but not write", async () => {
    expect(await telegramSays(TG_GUEST, "/config show")).toBe("/config is for the bot owner only (commands.ownerAllowFrom).");
    const writer = (await openOperator(gw.url, gw.token, { scopes: ["operator.read", "operator.write"] })).sock;
    try {
      expect(await operatorSays("/config get commands.config", writer)).toBe("commands.config =:\ntrue");
      expect(await operatorSays("/config set agents.defaults.thinkingDefault=high", writer)).toBe(
        "Changing the gateway from a chat command needs the operator.admin scope on this connection.",
      );
      expect(fileConfig().agents.defaults.thinkingDefault).toBeUndefined();
    } finally {
      writer.close();
    }
  });
});

describe("/mcp", () => {
  // Saved disabled: the file's other tests run turns, which would start an enabled server.
  const FETCH = { command: "npx", args: ["-y", "mcp-fetch", "--api-key", "sk-mcpsecret12345", "--region=eu"], env: { FETCH_TOKEN: "tok-mcp-env-9876" }, enabled: false };

  it("saves, shows with credentials hidden, and removes servers through the validated write", async () => {
    expect(await operatorSays("/mcp")).toBe('No MCP servers (mcp.servers). Add one: /mcp set <name>={"command":"npx","args":["-y","<package>"]}');
    expect(await telegramSays(TG_OWNER, `/mcp set fetch=${JSON.stringify(FETCH)}`)).toBe('Saved MCP server "fetch". Applied.');
    expect(fileConfig().mcp.servers.fetch).toEqual(FETCH);
    expect(await discordSays('/mcp set docs {"type":"http","url":"https://mcp.example.com/mcp","headers":{"X-Key":"hdr-secret-4455"},"enabled":false}')).toBe(
      'Saved MCP server "docs". Applied.',
    );
    expect(fileConfig().mcp.servers.docs).toEqual({ url: "https://mcp.example.com/mcp", transport: "streamable-http", headers: { "X-Key": "hdr-secret-4455" }, enabled: false });

    const list = await slackSays("/mcp show");
    expect(list).toBe("MCP servers:\ndocs (disabled)  streamable-http: https://mcp.example.com/mcp\nfetch (disabled)  stdio: npx -y mcp-fetch --api-key [hidden] --region=eu");
    const one = await operatorSays("/mcp get fetch");
    expect(one).toContain('"FETCH_TOKEN": "[hidden]"');
    expect(await operatorSays("/mcp show docs")).toContain('"X-Key": "[hidden]"');
    for (const shown of [list, one]) expect(shown).not.toMatch(/sk-mcpsecret12345|tok-mcp-env-9876|hdr-secret-4455/);

    const before = fs.readFileSync(configPath, "utf8");
    expect(await operatorSays('/mcp set both={"command":"x","url":"https://y.example"}')).toMatch(/^Config not changed: mcp\.servers\.both/);
    expect(await operatorSays("/mcp set broken={not json")).toMatch(/^Not saved: the server definition is not JSON/);
    expect(await operatorSays("/mcp unset nothere")).toBe('No MCP server "nothere" in mcp.servers (/mcp show lists them).');
    expect(fs.readFileSync(configPath, "utf8")).toBe(before);

    expect(await operatorSays("/mcp unset fetch")).toBe('Removed MCP server "fetch". Applied.');
    expect(await operatorSays("/mcp unset docs")).toBe('Removed MCP server "docs". Applied.');
    expect(fileConfig().mcp.servers).toEqual({});
    expect(gw.output()).not.toMatch(/sk-mcpsecret12345|tok-mcp-env-9876|hdr-secret-4455/);
  });

  it("is the owner's, and off when commands.mcp is not true", async () => {
    expect(await telegramSays(TG_GUEST, "/mcp show")).toBe("/mcp is for the bot owner only (commands.ownerAllowFrom).");
    expect(await operatorSays("/config set commands.mcp=false")).toBe("Set commands.mcp = false. Applied.");
    expect(await telegramSays(TG_OWNER, "/mcp show")).toBe("/mcp is off on this gateway. The owner can enable it with commands.mcp: true (docs/configuration.md).");
    expect(await operatorSays("/config set commands.mcp=true")).toBe("Set commands.mcp = true. Applied.");
  });
});

describe("/allowlist", () => {
  it("lists the channel's allowlists; the owner adds a sender, who is answered at once, and removes them again", async () => {
    const list = await telegramSays(TG_GUEST, "/allowlist");
    expect(list).toBe(
      ["Allowlist", "Channel: telegram (account default)", "DM policy: allowlist · group policy: allowlist", `DM allowFrom (config): ${TG_OWNER}, ${TG_GUEST}`].join("\n"),
    );
    expect(await telegramSays(TG_GUEST, `/allowlist add ${TG_NEWCOMER}`)).toBe("/allowlist add and remove are for the bot owner only (commands.ownerAllowFrom).");

    expect(await telegramSays(TG_OWNER, `/allowlist add ${TG_NEWCOMER}`)).toBe(`DM allowlist added: ${TG_NEWCOMER} (channels.telegram.allowFrom).`);
    expect(fileConfig().channels.telegram.allowFrom).toEqual([String(TG_OWNER), String(TG_GUEST), String(TG_NEWCOMER)]);
    expect(await telegramSays(TG_NEWCOMER, "hello")).toBe("model: hello");

    expect(await operatorSays(`/allowlist remove ${TG_NEWCOMER} channel=telegram`)).toBe(`DM allowlist removed: ${TG_NEWCOMER} (channels.telegram.allowFrom).`);
    expect(fileConfig().channels.telegram.allowFrom).toEqual([String(TG_OWNER), String(TG_GUEST)]);
    expect(await operatorSays("/allowlist remove 12345 channel=telegram")).toBe("12345 is not in channels.telegram.allowFrom.");
    expect(await slackSays("/allowlist add group U200")).toBe("group allowlist added: U200 (channels.slack.groupAllowFrom).");
    expect(await discordSays("/allowlist all")).toContain(`DM allowFrom (config): ${DC_OWNER}\nGroup allowFrom (config): (none)`);
    expect(await operatorSays("/allowlist")).toMatch(/^Name the channel: \/allowlist channel=<telegram\|discord\|slack>/);
  });
});

describe("/bash and ! <command>", () => {
  it("runs an allowlisted command and shows its output; a miss waits for an exec approval and a denial is said", async () => {
    expect(await discordSays("! echo hello from bash")).toMatch(/^\$ echo hello from bash\nhello from bash\n\n\[exit code 0 · [\d.]+ s\]$/);
    expect(await operatorSays("/bash echo via chat.send")).toMatch(/^\$ echo via chat\.send\nvia chat\.send\n/);

    // A miss asks a human; the chat is told the approval's id at once and is not held meanwhile.
    const requested = sock.waitFor((f) => f.type === "event" && f.event === "exec.approval.requested", 20_000);
    const waiting = await slackSays("! ls /");
    const approval = await requested;
    expect(approval.payload.command).toBe("ls /");
    expect(waiting).toBe(`Waiting for an exec approval: /approve ${approval.payload.id} allow-once|allow-always|deny. The output comes here when the command ends.`);
    const resolved = await sock.request("exec.approval.resolve", { id: approval.payload.id, decision: "deny" });
    expect(resolved.ok).toBe(true);
    expect(await slackPost(waiting)).toBe("Not run: an operator denied this command");

    // Answered from the same chat with /approve: the output follows.
    const waitingTg = await telegramSays(TG_OWNER, "! printf approved");
    const id = /\/approve (\S+) /.exec(waitingTg)![1]!;
    // The approval's answer and the command's output come in either order.
    const before = telegram.messages(TG_OWNER).length;
    telegram.pushMessage({ chatId: TG_OWNER, fromId: TG_OWNER, fromName: "Owner", text: `/approve ${id} allow-once`, messageId: messageId++ });
    await telegram.waitFor(() => telegram.messages(TG_OWNER).length >= before + 2, 20_000);
    const [a, b] = telegram
      .messages(TG_OWNER)
      .slice(before)
      .map((m) => String(m.text));
    const [answer, output] = a!.startsWith("Approval") ? [a, b] : [b, a];
    expect(answer).toBe(`Approval ${id}: allow-once.`);
    expect(output).toMatch(/^\$ printf approved\napproved\n\n\[exit code 0 · /);
  });

  it("answers at once when the command outlasts commands.bashForegroundMs, and posts the output when it ends", async () => {
    expect(await operatorSays("/config set commands.bashForegroundMs=0")).toBe("Set commands.bashForegroundMs = 0. Applied.");
    try {
      const late = sock.waitFor((f) => f.event === "chat" && f.payload.message?.content?.[0]?.text?.startsWith("$ echo later"), 20_000);
      expect(await operatorSays("! echo later")).toBe("Still running: echo later. The output comes here when it ends.");
      expect((await late).payload.message.content[0].text).toMatch(/^\$ echo later\nlater\n\n\[exit code 0 · /);
      const waiting = await discordSays("! echo in discord");
      expect(waiting).toBe("Still running: echo in discord. The output comes here when it ends.");
      await waitUntil(() => discord.messages(DC_OWNER_DM).some((m) => m.content.startsWith("$ echo in discord\nin discord")), 20_000, "the late Discord output");
    } finally {
      await operatorSays("/config set commands.bashForegroundMs=30000");
    }
  });

  it("is the owner's, and off when commands.bash is not true", async () => {
    expect(await telegramSays(TG_GUEST, "! echo hi")).toBe("/bash is for the bot owner only (commands.ownerAllowFrom).");
    expect(await operatorSays("/config set commands.bash=false")).toBe("Set commands.bash = false. Applied.");
    expect(await telegramSays(TG_OWNER, "! echo hi")).toMatch(/^\/bash is off on this gateway/);
    expect(await operatorSays("/config set commands.bash=true")).toBe("Set commands.bash = true. Applied.");
  });
});

describe("/tools", () => {
  it("lists what the agent can use now for the one asking: the owner gets exec, a guest does not", async () => {
    const owner = await telegramSays(TG_OWNER, "/tools");
    expect(owner).toMatch(/^Tools \(\d+\):\n/);
    expect(owner).toContain("exec");
    expect(owner).toContain("/tools verbose says what each does.");
    const guest = await telegramSays(TG_GUEST, "/tools");
    expect(guest).toContain("read");
    expect(guest).not.toMatch(/\bexec\b/);
    const verbose = await operatorSays("/tools verbose");
    expect(verbose).toMatch(/• exec — Run a shell command in the workspace and get its output and exit code\./);
  });
});

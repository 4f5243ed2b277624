import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";
import type { ChannelManager } from "../../../src/channels/channel-manager.js";
import { approvalPrompt, decisionButtons, ExecApprovalChats, promptRoutes, resolvedPrompt } from "../../../src/gateway/exec-approval-chat.js";
import type { SessionStore } from "../../../src/sessions/store/index.js";

const ORIGIN = { channel: "telegram", to: "901" };
const request = { agentId: "main", sessionKey: "agent:main:telegram:direct:901" };
const config = (exec?: Record<string, unknown>) => validateConfig(exec ? { approvals: { exec } } : {}, {}).config;
const TARGET = { channel: "slack", to: "channel:C1" };

describe("where an exec approval prompt goes", () => {
  it("the run's own chat by default, and nowhere for a run without one", () => {
    expect(promptRoutes(request, config(), ORIGIN)).toEqual([ORIGIN]);
    expect(promptRoutes(request, config(), undefined)).toEqual([]);
    // Targets wait for enabled.
    expect(promptRoutes(request, config({ mode: "both", targets: [TARGET] }), ORIGIN)).toEqual([ORIGIN]);
  });

  it("mode session keeps the run's chat, targets only the targets, both the two without repeats", () => {
    expect(promptRoutes(request, config({ enabled: true, targets: [TARGET] }), ORIGIN)).toEqual([ORIGIN]);
    expect(promptRoutes(request, config({ enabled: true, mode: "targets", targets: [TARGET] }), ORIGIN)).toEqual([TARGET]);
    expect(promptRoutes(request, config({ enabled: true, mode: "both", targets: [TARGET, { channel: "telegram", to: "901" }] }), ORIGIN)).toEqual([ORIGIN, TARGET]);
  });

  it("agentFilter and sessionFilter (substring or /regex/) decide which approvals are forwarded", () => {
    const forward = (extra: Record<string, unknown>) => promptRoutes(request, config({ enabled: true, mode: "targets", targets: [TARGET], ...extra }), ORIGIN);
    expect(forward({ agentFilter: ["ops"] })).toEqual([ORIGIN]);
    expect(forward({ agentFilter: ["main"] })).toEqual([TARGET]);
    expect(forward({ sessionFilter: ["discord"] })).toEqual([ORIGIN]);
    expect(forward({ sessionFilter: ["telegram:direct"] })).toEqual([TARGET]);
    expect(forward({ sessionFilter: ["/^agent:main:telegram/"] })).toEqual([TARGET]);
  });

  it("an invalid /regex/ in sessionFilter is refused when the config loads", () => {
    expect(() => validateConfig({ approvals: { exec: { sessionFilter: ["/(unclosed/"] } } }, {})).toThrow(
      /approvals\.exec\.sessionFilter\[0\]: not a valid \/regular expression\//,
    );
  });

  it("the prompt names the command, where, why, and the exact /approve line", () => {
    const text = approvalPrompt({ id: "abc", command: "rm -rf build", cwd: "/work", agentId: "main", reason: "not in the allowlist", createdAtMs: 0, expiresAtMs: 30 * 60_000 });
    expect(text).toBe(
      "🔐 Exec approval needed (agent main):\n`rm -rf build`\nin /work\nWhy: not in the allowlist\nReply /approve abc allow-once | allow-always | deny (within 30 min; then it is denied).",
    );
  });

  it("once answered or expired, the prompt says how it ended instead of how to answer", () => {
    const request = { id: "abc", command: "rm -rf build", agentId: "main", createdAtMs: 0, expiresAtMs: 60_000 };
    expect(resolvedPrompt(request, "deny")).toBe("🔐 Exec approval needed (agent main):\n`rm -rf build`\n❌ Denied.");
    expect(resolvedPrompt(request, null)).toBe("🔐 Exec approval needed (agent main):\n`rm -rf build`\n⌛ No answer in time: not run.");
  });

  it("one button per decision, each its /approve line; none when a line would pass Telegram's 64 bytes", () => {
    expect(decisionButtons("abc")).toEqual([
      [
        { label: "Allow once", data: "/approve abc allow-once", style: "success" },
        { label: "Allow always", data: "/approve abc allow-always", style: "primary" },
        { label: "Deny", data: "/approve abc deny", style: "danger" },
      ],
    ]);
    expect(decisionButtons("x".repeat(60))).toEqual([]);
  });

  describe("a Telegram run with channels.telegram.execApprovals", () => {
    const GROUP = { channel: "telegram", accountId: "default", to: "-100500" };
    const groupRequest = { agentId: "main", sessionKey: "agent:main:telegram:group:-100500" };
    const withTelegram = (execApprovals?: Record<string, unknown>, owners: string[] = ["telegram:901", "discord:7", "*", "902"]) =>
      validateConfig({ channels: { telegram: { botToken: "1:a", ...(execApprovals ? { execApprovals } : {}) } }, commands: { ownerAllowFrom: owners } }, {}).config;
    const dm = (to: string) => ({ channel: "telegram", accountId: "default", to });

    it("asks the approvers' DMs by default: the explicit list, else the owners' Telegram ids", () => {
      expect(promptRoutes(groupRequest, withTelegram(), GROUP)).toEqual([dm("901"), dm("902")]);
      expect(promptRoutes(groupRequest, withTelegram({ approvers: ["tg:777", "777"] }), GROUP)).toEqual([dm("777")]);
    });
    it("target channel asks the chat, both asks the chat and the DMs", () => {
      expect(promptRoutes(groupRequest, withTelegram({ target: "channel", approvers: ["777"] }), GROUP)).toEqual([GROUP]);
      expect(promptRoutes(groupRequest, withTelegram({ target: "both", approvers: ["777"] }), GROUP)).toEqual([GROUP, dm("777")]);
    });
    it("off, without an approver, or filtered out: the chat is asked as on any channel", () => {
      expect(promptRoutes(groupRequest, withTelegram({ enabled: false }), GROUP)).toEqual([GROUP]);
      expect(promptRoutes(groupRequest, withTelegram(undefined, ["discord:7"]), GROUP)).toEqual([GROUP]);
      expect(promptRoutes(groupRequest, withTelegram({ agentFilter: ["ops"] }), GROUP)).toEqual([GROUP]);
      expect(promptRoutes(groupRequest, withTelegram({ sessionFilter: ["/:group:/"] }), GROUP)).toEqual([dm("901"), dm("902")]);
    });
    it("refuses an approver that is not a numeric user id", () => {
      expect(() => validateConfig({ channels: { telegram: { botToken: "1:a", execApprovals: { approvers: ["@ops"] } } } }, {})).toThrow(/a numeric Telegram user id/);
    });
  });

  describe("a Discord run with channels.discord.execApprovals", () => {
    const APPROVER = "100000000000000777";
    const CHANNEL = { channel: "discord", accountId: "default", to: "channel:100000000000000500" };
    const channelRequest = { agentId: "main", sessionKey: "agent:main:discord:channel:100000000000000500" };
    const withDiscord = (execApprovals?: Record<string, unknown>) =>
      validateConfig({ channels: { discord: { token: "t", ...(execApprovals ? { execApprovals } : {}) } }, commands: { ownerAllowFrom: [`discord:${APPROVER}`] } }, {}).config;
    const dm = { channel: "discord", accountId: "default", to: `user:${APPROVER}` };

    it("off unless enabled: the chat is asked as on any channel", () => {
      expect(promptRoutes(channelRequest, withDiscord(), CHANNEL)).toEqual([CHANNEL]);
      expect(promptRoutes(channelRequest, withDiscord({ approvers: [APPROVER] }), CHANNEL)).toEqual([CHANNEL]);
    });
    it("enabled: the approvers' DMs (the owners' Discord ids when none is listed), the chat too with target both; cleanupAfterResolve marks the DMs", () => {
      expect(promptRoutes(channelRequest, withDiscord({ enabled: "auto" }), CHANNEL)).toEqual([dm]);
      expect(promptRoutes(channelRequest, withDiscord({ enabled: true, target: "both", cleanupAfterResolve: true }), CHANNEL)).toEqual([
        CHANNEL,
        { ...dm, cleanupAfterResolve: true },
      ]);
    });
  });
});

describe("ExecApprovalChats", () => {
  const request = { id: "r1", command: "make", agentId: "main", sessionKey: "agent:main:telegram:direct:901", createdAtMs: 0, expiresAtMs: 60_000 };

  function chats(config = validateConfig({}, {}).config, origin: Record<string, string> = { lastChannel: "telegram", lastTo: "901", lastAccountId: "default" }) {
    const calls: string[] = [];
    let deliver!: () => void;
    const delivered = new Promise<void>((resolve) => (deliver = resolve));
    const channels = {
      send: async () => {
        await delivered;
        return { runId: "x", channel: "telegram", accountId: "default", chatId: "901", messageIds: ["55"] };
      },
      attachButtons: async () => calls.push("buttons"),
      editSent: async (_sent: unknown, text: string) => calls.push(`edit: ${text.split("\n").at(-1)}`),
      deleteSent: async () => calls.push("delete"),
    } as unknown as ChannelManager;
    const store = { get: () => origin } as unknown as SessionStore;
    const logger = { warn: () => {} } as never;
    const subject = new ExecApprovalChats({ config: () => config, channels: () => channels, store, logger });
    return { subject, calls, deliver };
  }

  it("buttons a delivered question, and edits it to its outcome when answered", async () => {
    const { subject, calls, deliver } = chats();
    subject.prompt(request);
    deliver();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual(["buttons"]);
    subject.resolved({ id: "r1", decision: "deny", ts: 1 }, request);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual(["buttons", "edit: ❌ Denied."]);
  });

  it("an approver's DM question is deleted when its account cleans up after the request ends", async () => {
    const approver = "100000000000000777";
    const config = validateConfig({ channels: { discord: { token: "t", execApprovals: { enabled: true, approvers: [approver], cleanupAfterResolve: true } } } }, {}).config;
    const { subject, calls, deliver } = chats(config, { lastChannel: "discord", lastTo: "channel:100000000000000500", lastAccountId: "default" });
    subject.prompt({ ...request, sessionKey: "agent:main:discord:channel:100000000000000500" });
    deliver();
    await new Promise((resolve) => setTimeout(resolve, 10));
    subject.resolved({ id: "r1", decision: "allow-once", ts: 1 }, request);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual(["buttons", "delete"]);
  });

  it("a question that reached none of its chats leaves a notice without the command in the run's chat, edited to the outcome", async () => {
    const approver = "100000000000000777";
    const config = validateConfig({ channels: { discord: { token: "t", execApprovals: { enabled: true, approvers: [approver] } } } }, {}).config;
    const sent: { to: string; message: string }[] = [];
    const calls: string[] = [];
    const channels = {
      send: async (params: { to: string; message: string }) => {
        sent.push(params);
        if (params.to === `user:${approver}`) throw new Error("discord: Cannot send messages to this user");
        return { runId: "x", channel: "discord", accountId: "default", chatId: "100000000000000500", messageIds: ["56"] };
      },
      attachButtons: async (_sent: unknown, _rows: unknown, text: string) => calls.push(`buttons: ${text.split("\n")[0]}`),
      editSent: async (_sent: unknown, text: string) => calls.push(`edit: ${text.replace(/\n/g, " ")}`),
    } as unknown as ChannelManager;
    const store = { get: () => ({ lastChannel: "discord", lastTo: "channel:100000000000000500", lastAccountId: "default" }) } as unknown as SessionStore;
    const warnings: string[] = [];
    const subject = new ExecApprovalChats({ config: () => config, channels: () => channels, store, logger: { warn: (_o: unknown, msg: string) => warnings.push(msg) } as never });
    const secret = { ...request, command: "cat /etc/secret-report", sessionKey: "agent:main:discord:channel:100000000000000500" };
    subject.prompt(secret);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent.map((s) => s.to)).toEqual([`user:${approver}`, "channel:100000000000000500"]);
    expect(sent[1]!.message).toBe(
      "🔐 An exec approval (agent main) is waiting, and its question reached none of the approvers' chats.\nReply /approve r1 allow-once | allow-always | deny (within 1 min; then it is denied).",
    );
    expect(sent[1]!.message).not.toContain("secret-report");
    expect(calls).toEqual(["buttons: 🔐 An exec approval (agent main) is waiting, and its question reached none of the approvers' chats."]);
    expect(warnings).toEqual(["exec approval prompt not delivered to the chat", "exec approval prompt reached none of its chats: a notice goes to the run's chat"]);
    subject.resolved({ id: "r1", decision: "deny", ts: 1 }, secret);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls.at(-1)).toBe("edit: 🔐 Exec approval r1 (agent main): ❌ Denied.");
  });

  it("no notice when an approver's chat took the question", async () => {
    const config = validateConfig({ channels: { discord: { token: "t", execApprovals: { enabled: true, approvers: ["100000000000000777"] } } } }, {}).config;
    const { subject, calls, deliver } = chats(config, { lastChannel: "discord", lastTo: "channel:100000000000000500", lastAccountId: "default" });
    subject.prompt({ ...request, sessionKey: "agent:main:discord:channel:100000000000000500" });
    deliver();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // One question (the approver's DM), buttoned; nothing posted in the run's channel.
    expect(calls).toEqual(["buttons"]);
  });

  it("a question delivered after its request ended gets no buttons, only its outcome", async () => {
    const { subject, calls, deliver } = chats();
    subject.prompt(request);
    subject.resolved({ id: "r1", decision: null, ts: 1 }, request);
    deliver();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toEqual(["edit: ⌛ No answer in time: not run."]);
  });
});

import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { applyDefaults } from "../../../src/config/defaults.js";
import { HeartbeatRunner, type HeartbeatEvent } from "../../../src/cron/heartbeat/heartbeat-runner.js";
import { PendingSystemEvents } from "../../../src/cron/heartbeat/pending-events.js";
import { isHeartbeatFileEmpty, resolveHeartbeats, withinActiveHours } from "../../../src/cron/heartbeat/heartbeat-settings.js";
import { hostTimeZone } from "../../../src/infra/host-time-zone.js";
import { stripHeartbeatToken } from "../../../src/cron/heartbeat-token.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { FakeChannels, tempStateDir } from "./cron-harness.js";
import { FakeCronConversations } from "./fake-cron-conversations.js";

function setup(heartbeat: Record<string, unknown>, heartbeatMd?: string, pendingDir = tempStateDir()) {
  const workspace = tempStateDir();
  if (heartbeatMd !== undefined) fs.writeFileSync(path.join(workspace, "HEARTBEAT.md"), heartbeatMd);
  let config = applyDefaults({ agents: { defaults: { heartbeat } } } as never);
  const logLines: string[] = [];
  const clock = new ManualClock(Date.parse("2026-06-01T10:00:00Z"));
  const conversations = new FakeCronConversations();
  const channels = new FakeChannels();
  const events: HeartbeatEvent[] = [];
  const runner = new HeartbeatRunner({
    config: () => config,
    conversations,
    channels: () => channels,
    workspaceDirOf: () => workspace,
    logger: pino({ level: "warn" }, { write: (line: string) => logLines.push(line) }),
    clock,
    emit: (e) => events.push(e),
    pending: new PendingSystemEvents(pendingDir, () => clock.now()),
  });
  runner.start();
  /** Replaces the heartbeat config and applies it as a reload does. */
  const reload = (next: Record<string, unknown>) => {
    config = applyDefaults({ agents: { defaults: { heartbeat: next } } } as never);
    runner.applyConfig();
  };
  return { clock, conversations, channels, events, runner, logLines, reload };
}

/** A queue left on disk by an earlier process, holding these `next-heartbeat` events. */
function leftoverQueue(events: Array<[agentId: string, text: string]>): string {
  const pendingDir = tempStateDir();
  const before = new PendingSystemEvents(pendingDir);
  for (const [agentId, text] of events) before.add(agentId, text);
  before.close();
  return pendingDir;
}

async function settled(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
}

describe("heartbeat", () => {
  it("a HEARTBEAT_OK answer sends nothing", async () => {
    const h = setup({ every: "30m", target: "telegram", to: "111" }, "# Checks\n- reply HEARTBEAT_OK\n");
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted).toHaveLength(1);
    expect(h.conversations.submitted[0]).toMatchObject({ sessionKey: "agent:main:main", provenance: { kind: "internal_system", sourceTool: "heartbeat" } });
    expect(h.channels.sent).toEqual([]);
    expect(h.runner.lastEvent()).toMatchObject({ status: "ok-token" });
  });

  it("a heartbeat_respond report decides over the text: notify=false acknowledges with its summary, notify=true sends its notification text, else its summary", async () => {
    const h = setup({ every: "30m", target: "telegram", to: "111" }, "- check the build\n");
    h.conversations.autoReply = () => ({
      status: "ok",
      text: "Long prose the user must not get.",
      heartbeatReport: { outcome: "no_change", notify: false, summary: "The build is green." },
    });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted[0]!.turnSettings).toMatchObject({ heartbeat: true });
    expect(h.channels.sent).toEqual([]);
    expect(h.runner.lastEvent()).toMatchObject({ status: "ok-token", preview: "The build is green." });

    h.conversations.autoReply = () => ({
      status: "ok",
      text: "HEARTBEAT_OK",
      heartbeatReport: { outcome: "needs_attention", notify: true, summary: "The build is red since 09:00.", notificationText: "Build red on main" },
    });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent.map((s) => s.text)).toEqual(["Build red on main"]);
    expect(h.runner.lastEvent()).toMatchObject({ status: "sent", preview: "Build red on main" });

    h.conversations.autoReply = () => ({ status: "ok", text: "", heartbeatReport: { outcome: "blocked", notify: true, summary: "Deploy is stuck." } });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent.map((s) => s.text)).toEqual(["Build red on main", "Deploy is stuck."]);
  });

  it("heartbeatVisibility: showOk sends the acknowledgement, showAlerts false keeps an alert in the session, useIndicator false tells operators nothing", async () => {
    const h = setup({ every: "30m", target: "telegram", to: "111" }, "- check the build\n");
    h.channels.visibility.set("telegram", { showOk: true });
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent).toEqual([{ route: { channel: "telegram", to: "111" }, text: "HEARTBEAT_OK", key: expect.stringMatching(/^heartbeat:/) }]);
    expect(h.runner.lastEvent()).toMatchObject({ status: "ok-token", channel: "telegram", reason: "acknowledgement sent (heartbeatVisibility.showOk)" });

    h.channels.visibility.set("telegram", { showAlerts: false, useIndicator: false });
    h.conversations.autoReply = () => ({ status: "ok", text: "The build is red." });
    const told = h.events.length;
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent).toHaveLength(1);
    expect(h.runner.lastEvent()).toMatchObject({ status: "skipped", reason: "heartbeatVisibility.showAlerts is off for telegram: the reply stays in the session" });
    expect(h.events).toHaveLength(told);
  });

  it("a reminder is sent to the target chat once", async () => {
    const h = setup({ every: "30m", target: "telegram", to: "111" }, "- remind me to stretch\n");
    h.conversations.autoReply = () => ({ status: "ok", text: "Time to stretch!" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent).toEqual([{ route: { channel: "telegram", to: "111" }, text: "Time to stretch!", key: expect.stringMatching(/^heartbeat:/) }]);
    expect(h.runner.lastEvent()).toMatchObject({ status: "sent", channel: "telegram", to: "111", preview: "Time to stretch!" });
  });

  it("target owner sends to the owner's DM the channels find, checked like any route", async () => {
    const h = setup({ every: "30m", target: "owner", to: "999" }, "- remind me to stretch\n");
    h.channels.owner = { channel: "telegram", to: "42", accountId: "default" };
    h.conversations.autoReply = () => ({ status: "ok", text: "Time to stretch!" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent).toEqual([{ route: { channel: "telegram", to: "42", accountId: "default" }, text: "Time to stretch!", key: expect.stringMatching(/^heartbeat:/) }]);
    h.channels.owner = { channel: "discord", to: "user:42", accountId: "default" };
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent).toHaveLength(1);
    expect(h.runner.lastEvent()).toMatchObject({ status: "skipped", reason: expect.stringMatching(/channel discord is not configured/) });
  });

  it("session: beats run in the named session of the agent (isolated: <session>:heartbeat) and target last is that session's chat; another agent's key means main", async () => {
    const h = setup({ every: "30m", target: "last", session: "ops-room" }, "- check\n");
    h.channels.lastRoutes.set("agent:main:ops-room", { channel: "telegram", to: "-100200", chatType: "group" });
    h.conversations.autoReply = () => ({ status: "ok", text: "The disk is 95% full" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted.at(-1)).toMatchObject({ sessionKey: "agent:main:ops-room" });
    expect(h.channels.sent.map((s) => s.route)).toEqual([{ channel: "telegram", to: "-100200", chatType: "group" }]);
    h.reload({ every: "30m", target: "last", session: "ops-room", isolatedSession: true });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted.at(-1)).toMatchObject({ sessionKey: "agent:main:ops-room:heartbeat" });
    expect(h.conversations.resets.at(-1)).toBe("agent:main:ops-room:heartbeat");
    for (const session of ["main", "agent:other:room"]) {
      h.reload({ every: "30m", session });
      h.clock.advance(30 * 60_000);
      await settled();
      expect(h.conversations.submitted.at(-1), session).toMatchObject({ sessionKey: "agent:main:main" });
    }
  });

  it("directPolicy block keeps replies out of DMs: an owner target, a last chat that is one, a user id; groups still get them", async () => {
    const h = setup({ every: "30m", target: "owner", directPolicy: "block" }, "- check\n");
    h.channels.owner = { channel: "telegram", to: "42", accountId: "default" };
    h.conversations.autoReply = () => ({ status: "ok", text: "The disk is 95% full" });
    const beat = async (heartbeat: Record<string, unknown>) => {
      h.reload(heartbeat);
      h.clock.advance(30 * 60_000);
      await settled();
      return h.runner.lastEvent();
    };
    const blocked = { status: "skipped", reason: expect.stringMatching(/is a DM and heartbeat\.directPolicy is block/) };
    expect(await beat({ every: "30m", target: "owner", directPolicy: "block" })).toMatchObject(blocked);
    h.channels.lastRoutes.set("agent:main:main", { channel: "telegram", to: "42", chatType: "direct" });
    expect(await beat({ every: "30m", target: "last", directPolicy: "block" })).toMatchObject(blocked);
    expect(await beat({ every: "30m", target: "telegram", to: "777", directPolicy: "block" })).toMatchObject(blocked);
    expect(await beat({ every: "30m", target: "discord", to: "user:80351110224678912", directPolicy: "block" })).toMatchObject(blocked);
    expect(h.channels.sent).toEqual([]);
    expect(await beat({ every: "30m", target: "telegram", to: "-100200", directPolicy: "block" })).toMatchObject({ status: "sent", to: "-100200" });
    expect(await beat({ every: "30m", target: "last" })).toMatchObject({ status: "sent", to: "42" });
  });

  it("a reply whose target cannot be reached is recorded skipped with the reason and logged as a warning", async () => {
    for (const [heartbeat, reason] of [
      [{ every: "30m", target: "discord", to: "1" }, /channel discord is not configured/],
      [{ every: "30m", target: "telegram" }, /target telegram needs heartbeat.to/],
      [{ every: "30m", target: "owner" }, /target is owner, but no owner's DM is known: name yourself in commands\.ownerAllowFrom/],
    ] as const) {
      const h = setup(heartbeat, "- check the disk\n");
      h.conversations.autoReply = () => ({ status: "ok", text: "The disk is 95% full" });
      h.clock.advance(30 * 60_000);
      await settled();
      expect(h.channels.sent).toEqual([]);
      expect(h.runner.lastEvent(), heartbeat.target).toMatchObject({ status: "skipped", reason: expect.stringMatching(reason), preview: "The disk is 95% full" });
      const warning = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg.startsWith("heartbeat reply not delivered"));
      expect(warning, heartbeat.target).toMatchObject({ level: 40, agentId: "main", target: heartbeat.target, reason: expect.stringMatching(reason) });
      expect(warning.msg).toContain("agents.defaults.heartbeat");
    }
  });

  it("drops an ack whose remainder is short and sends one whose remainder is long", async () => {
    const h = setup({ every: "30m", target: "telegram", to: "111", ackMaxChars: 10 }, "- check\n");
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK all fine" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent).toEqual([]);
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK but the disk is 95% full, clean up" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.channels.sent.map((s) => s.text)).toEqual(["but the disk is 95% full, clean up"]);
  });

  it("waits while the main session is at work, and beats once it is idle", async () => {
    const h = setup({ every: "30m" }, "- check\n");
    await h.conversations.submit({ message: "user question", sessionKey: "agent:main:main", method: "chat.send", idempotencyKey: "user-1" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted).toHaveLength(1);
    expect(h.events.at(-1)).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^busy/) });
    h.conversations.all.get("user-1")!.finish("ok", "answer");
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.clock.advance(60_000);
    await settled();
    expect(h.conversations.submitted).toHaveLength(2);
  });

  it("spends no turn on a HEARTBEAT.md without tasks, nor outside activeHours", async () => {
    const empty = setup({ every: "30m" }, "# HEARTBEAT.md\n\n<!-- nothing yet -->\n- \n");
    empty.clock.advance(30 * 60_000);
    await settled();
    expect(empty.conversations.submitted).toEqual([]);
    expect(empty.runner.lastEvent()).toMatchObject({ status: "skipped", reason: "HEARTBEAT.md has no tasks" });
    // 10:00 UTC is 12:00 in Berlin: outside 22:00-07:00.
    const night = setup({ every: "30m", activeHours: { start: "22:00", end: "07:00", timezone: "Europe/Berlin" } }, "- check\n");
    night.clock.advance(30 * 60_000);
    await settled();
    expect(night.conversations.submitted).toEqual([]);
    expect(night.runner.lastEvent()).toMatchObject({ status: "skipped", reason: "outside activeHours" });
  });

  it("carries queued system events into the next beat, even with an empty HEARTBEAT.md", async () => {
    const h = setup({ every: "30m" }, "# nothing\n");
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    expect(h.runner.beats("main")).toBe(true);
    h.runner.queueEvent("main", "[Scheduled: backup] check the backup log");
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted[0]!.message).toContain("- [Scheduled: backup] check the backup log");
  });

  it("a beat that fails keeps its events for the next beat; one that ends ok takes them off the queue", async () => {
    const h = setup({ every: "30m" }, "# nothing\n");
    h.conversations.autoReply = () => ({ status: "error", text: "" });
    h.runner.queueEvent("main", "disk almost full");
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.runner.lastEvent()).toMatchObject({ status: "failed" });
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted.map((s) => s.message.includes("- disk almost full"))).toEqual([true, true]);
    h.clock.advance(30 * 60_000);
    await settled();
    // Nothing left to carry and HEARTBEAT.md asks for nothing: no third turn.
    expect(h.conversations.submitted).toHaveLength(2);
  });

  it("a wake now that arrives while a beat runs beats again as soon as that beat ends, with the new event only", async () => {
    const h = setup({ every: "30m" }, "# nothing\n");
    h.runner.queueEvent("main", "deploy finished", { now: true });
    h.runner.wakeNow("main");
    h.clock.advance(0);
    await settled();
    expect(h.conversations.submitted).toHaveLength(1);
    h.runner.queueEvent("main", "backup done", { now: true });
    h.runner.wakeNow("main");
    h.clock.advance(0);
    await settled();
    expect(h.conversations.submitted).toHaveLength(1);
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.conversations.active()[0]!.finish("ok", "HEARTBEAT_OK");
    await settled();
    h.clock.advance(0);
    await settled();
    expect(h.conversations.submitted.map((s) => s.message)).toEqual([expect.stringContaining("- deploy finished"), expect.stringContaining("- backup done")]);
    expect(h.conversations.submitted[1]!.message).not.toContain("deploy finished");
  });

  it("a wake now still queued from the last process beats as soon as the runner starts", async () => {
    const pendingDir = tempStateDir();
    const before = new PendingSystemEvents(pendingDir);
    before.add("main", "deploy finished", { now: true });
    before.close();
    const h = setup({ every: "30m" }, "# nothing\n", pendingDir);
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.clock.advance(0);
    await settled();
    expect(h.conversations.submitted.map((s) => s.message)).toEqual([expect.stringContaining("- deploy finished")]);
  });

  it("at start, events left for an agent that is no longer configured are dropped with a warning naming it and their count", async () => {
    const pendingDir = leftoverQueue([
      ["gone", "backup done"],
      ["gone", "deploy done"],
    ]);
    const h = setup({ every: "30m" }, "# nothing\n", pendingDir);
    const warning = h.logLines.map((l) => JSON.parse(l)).find((l) => l.msg.includes("dropped"));
    expect(warning).toMatchObject({ agentId: "gone", count: 2 });
    const after = new PendingSystemEvents(pendingDir);
    expect(after.forAgent("gone")).toEqual([]);
    after.close();
  });

  it("events left for an agent whose heartbeat is off are delivered by one beat at start", async () => {
    const h = setup({ every: "0m" }, "# nothing\n", leftoverQueue([["main", "backup done"]]));
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.clock.advance(0);
    await settled();
    expect(h.conversations.submitted.map((s) => s.message)).toEqual([expect.stringContaining("- backup done")]);
    h.clock.advance(24 * 60 * 60_000);
    await settled();
    expect(h.conversations.submitted).toHaveLength(1);
  });

  it("a reload that turns the heartbeat off delivers the events it was holding with one beat", async () => {
    const h = setup({ every: "30m" }, "# nothing\n");
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.runner.queueEvent("main", "cron run finished");
    h.reload({ every: "0m" });
    h.clock.advance(0);
    await settled();
    expect(h.conversations.submitted.map((s) => s.message)).toEqual([expect.stringContaining("- cron run finished")]);
  });

  it("a beat's turn limit: its own timeoutSeconds, else agents.defaults.timeoutSeconds when set, else the interval capped at 600 s", () => {
    const limit = (raw: Record<string, unknown>) => resolveHeartbeats(applyDefaults(raw as never))[0]!.timeoutSeconds;
    expect(limit({})).toBe(600);
    expect(limit({ agents: { defaults: { heartbeat: { every: "5m" } } } })).toBe(300);
    expect(limit({ agents: { defaults: { heartbeat: { every: "2h", timeoutSeconds: 45 } } } })).toBe(45);
    expect(limit({ agents: { defaults: { timeoutSeconds: 120, heartbeat: { every: "2h" } } } })).toBe(120);
    expect(limit({ agents: { defaults: { heartbeat: { timeoutSeconds: 0 } } } })).toBe(0);
  });

  it("a window without its own zone (or user) is in agents.defaults.userTimezone, else the host's; local is the host's", () => {
    const zone = (raw: Record<string, unknown>) => resolveHeartbeats(applyDefaults(raw as never))[0]!.activeHours?.timezone;
    const window = (timezone?: string) => ({ heartbeat: { activeHours: { start: "09:00", end: "18:00", ...(timezone ? { timezone } : {}) } } });
    expect(zone({ agents: { defaults: { userTimezone: "America/Chicago", ...window() } } })).toBe("America/Chicago");
    expect(zone({ agents: { defaults: { userTimezone: "America/Chicago", ...window("user") } } })).toBe("America/Chicago");
    expect(zone({ agents: { defaults: { userTimezone: "America/Chicago", ...window("local") } } })).toBe(hostTimeZone());
    expect(zone({ agents: { defaults: { userTimezone: "America/Chicago", ...window("Asia/Tokyo") } } })).toBe("Asia/Tokyo");
    expect(zone({ agents: { defaults: window() } })).toBe(hostTimeZone());
  });

  it("the beat's turn runs with that limit, and may not ask the user (ask_user denied)", async () => {
    const h = setup({ every: "30m", target: "telegram", to: "111", timeoutSeconds: 90 }, "- check\n");
    h.conversations.autoReply = () => ({ status: "ok", text: "HEARTBEAT_OK" });
    h.clock.advance(30 * 60_000);
    await settled();
    expect(h.conversations.submitted[0]?.turnSettings).toMatchObject({ timeoutSeconds: 90, runToolDeny: { source: "heartbeat", entries: ["ask_user"] } });
  });

  it("settings: 30m by default, 0m off, only agents with their own block when any has one; set-heartbeats switches all", () => {
    expect(resolveHeartbeats(applyDefaults({} as never))[0]).toMatchObject({ enabled: true, every: "30m", everyMs: 1_800_000, target: "none", ackMaxChars: 300 });
    expect(resolveHeartbeats(applyDefaults({ agents: { defaults: { heartbeat: { every: "0m" } } } } as never))[0]!.enabled).toBe(false);
    const two = resolveHeartbeats(applyDefaults({ agents: { entries: { main: {}, ops: { heartbeat: { every: "1h" } } } } } as never));
    expect(two.map((s) => [s.agentId, s.enabled, s.every])).toEqual([
      ["main", false, "30m"],
      ["ops", true, "1h"],
    ]);
    // No agent with its own block: only the owner of the shared settings beats.
    const shared = (heartbeat: Record<string, unknown>) =>
      resolveHeartbeats(applyDefaults({ agents: { defaults: { heartbeat }, entries: { main: {}, ops: {} } } } as never)).map((s) => [s.agentId, s.enabled]);
    expect(shared({ every: "1h" })).toEqual([
      ["main", true],
      ["ops", false],
    ]);
    expect(shared({ every: "1h", agentId: "Ops" })).toEqual([
      ["main", false],
      ["ops", true],
    ]);
    const h = setup({ every: "30m" }, "- check\n");
    h.runner.setEnabled(false);
    expect(h.runner.settings()[0]!.enabled).toBe(false);
    h.clock.advance(60 * 60_000);
    expect(h.conversations.submitted).toEqual([]);
  });

  it("reads the token only at the start or end, and HEARTBEAT.md emptiness and active hours as documented", () => {
    expect(stripHeartbeatToken("**HEARTBEAT_OK**")).toEqual({ text: "", acked: true });
    expect(stripHeartbeatToken("All good. HEARTBEAT_OK")).toEqual({ text: "All good.", acked: true });
    expect(stripHeartbeatToken("say HEARTBEAT_OK to me later")).toEqual({ text: "say HEARTBEAT_OK to me later", acked: false });
    expect(isHeartbeatFileEmpty("# Title\n<!-- c -->\n- [ ]\n")).toBe(true);
    expect(isHeartbeatFileEmpty("- remind me to stretch")).toBe(false);
    expect(isHeartbeatFileEmpty(undefined)).toBe(false);
    expect(withinActiveHours({ start: "09:00", end: "17:00", timezone: "Europe/Berlin" }, Date.parse("2026-06-01T06:59:00Z"))).toBe(false);
    expect(withinActiveHours({ start: "09:00", end: "17:00", timezone: "Europe/Berlin" }, Date.parse("2026-06-01T07:00:00Z"))).toBe(true);
  });
});

import fs from "node:fs";
import path from "node:path";
import { runReplyText } from "../../agents/conversation-port.js";
import { heartbeatNotification } from "../../agents/tools/heartbeat-respond.js";
import type { HeartbeatVisibility, OpenClawConfig } from "../../config/index.js";
import { parseDuration } from "../../infra/duration.js";
import type { Logger } from "../../infra/logger.js";
import type { CronClock, CronTimer } from "../clock.js";
import { HEARTBEAT_OK, stripHeartbeatToken } from "../heartbeat-token.js";
import type { ChatRoute, CronChannelPort, CronConversations } from "../ports.js";
import { isSubagentSessionKey, parseSessionKey } from "../../sessions/keys/index.js";
import { DEFAULT_HEARTBEAT_EVERY, isHeartbeatFileEmpty, resolveHeartbeats, withinActiveHours, type HeartbeatSettings } from "./heartbeat-settings.js";
import type { PendingEvent, PendingSystemEvents } from "./pending-events.js";

/** What one heartbeat did, as `last-heartbeat` and the `heartbeat` event report it. */
export interface HeartbeatEvent {
  ts: number;
  agentId: string;
  status: "sent" | "ok-token" | "ok-empty" | "skipped" | "failed";
  reason?: string;
  preview?: string;
  durationMs?: number;
  channel?: string;
  to?: string;
}

export interface HeartbeatDeps {
  config: () => OpenClawConfig;
  conversations: CronConversations;
  channels: () => CronChannelPort | undefined;
  workspaceDirOf: (agentId: string) => string;
  logger: Logger;
  clock: CronClock;
  emit: (event: HeartbeatEvent) => void;
  /** The durable queue of system events waiting for a beat. */
  pending: PendingSystemEvents;
  /** True while a scheduled run of the agent is going (a heartbeat then waits). */
  cronBusy?: (agentId: string) => boolean;
}

/** A busy session is looked at again after this long. */
const BUSY_RETRY_MS = 60_000;
const PREVIEW_CHARS = 200;
const DEFAULT_EVERY_MS = parseDuration(DEFAULT_HEARTBEAT_EVERY)!;

/**
 * Heartbeats (docs/automation.md#heartbeat): per agent, a turn every `every` in its main session
 * with the heartbeat prompt and any system events queued for it. The turn may report with
 * heartbeat_respond, which decides over its text: notify=false acknowledges, notify=true alerts
 * with its notification text. A reply that only acknowledges (HEARTBEAT_OK) stays in the session unless the target's channel shows acknowledgements
 * (`heartbeatVisibility.showOk`); anything else goes to the configured target, unless that
 * channel hides alerts. A session at work is not interrupted: the beat waits until it is idle.
 * Queued events are on disk before they are acknowledged and leave the queue once a beat that
 * carried them ended ok.
 */
export class HeartbeatRunner {
  private readonly timers = new Map<string, CronTimer>();
  private readonly nextAt = new Map<string, number>();
  private readonly running = new Set<string>();
  /** Agents woken `now` while their beat ran: that beat carries only the events it began with. */
  private readonly wokenWhileRunning = new Set<string>();
  private last?: HeartbeatEvent;
  private enabled = true;
  private started = false;

  constructor(private readonly deps: HeartbeatDeps) {}

  start(): void {
    this.started = true;
    this.plan();
    // A `wake now` acknowledged before the last shutdown still owes its beat.
    for (const agentId of this.deps.pending.agentsOwedNow()) this.wakeNow(agentId);
  }

  stop(): void {
    this.started = false;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  /** `set-heartbeats`: switch every agent's heartbeat on or off until the next restart. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.plan();
  }

  /** Config reloaded: intervals and targets may have changed. */
  applyConfig(): void {
    this.plan();
  }

  lastEvent(): HeartbeatEvent | undefined {
    return this.last;
  }

  settings(): HeartbeatSettings[] {
    return resolveHeartbeats(this.deps.config()).map((s) => ({ ...s, enabled: s.enabled && this.enabled }));
  }

  /** True when the agent beats: a `next-heartbeat` system event for it then waits for its next beat. */
  beats(agentId: string): boolean {
    return this.enabled && this.started && this.settings().some((s) => s.agentId === agentId && s.enabled);
  }

  /**
   * Text for the agent's next heartbeat (a `wake` or a cron system event with `next-heartbeat`),
   * on disk before this returns. False when `key` was already used: nothing is queued again.
   */
  queueEvent(agentId: string, text: string, options: { now?: boolean; key?: string } = {}): boolean {
    return this.deps.pending.add(agentId, text, options);
  }

  /** `wake` with mode `now`: beat at once, or as soon as the beat now running ends (a busy session is tried again a minute later). */
  wakeNow(agentId: string): void {
    const settings = this.settings().find((s) => s.agentId === agentId);
    if (!settings) return;
    if (this.running.has(agentId)) this.wokenWhileRunning.add(agentId);
    else this.arm(settings, 0);
  }

  private plan(): void {
    if (!this.started) return;
    const now = this.deps.clock.now();
    const wanted = new Set<string>();
    for (const settings of this.settings()) {
      if (!settings.enabled) continue;
      wanted.add(settings.agentId);
      const due = this.nextAt.get(settings.agentId);
      // A shorter interval after a reload takes effect now; an unchanged one keeps its slot.
      this.arm(settings, due !== undefined && due - now <= settings.everyMs ? Math.max(0, due - now) : settings.everyMs);
    }
    for (const [agentId, timer] of this.timers) {
      if (wanted.has(agentId)) continue;
      timer.cancel();
      this.timers.delete(agentId);
      this.nextAt.delete(agentId);
    }
    this.placeQueuedEvents();
  }

  /**
   * Every queued event must reach a beat or be dropped out loud: the events of an agent that is no
   * longer configured leave the queue with a warning; an agent whose heartbeat is off gets one
   * beat that carries its events.
   */
  private placeQueuedEvents(): void {
    const all = this.settings();
    for (const [agentId, count] of this.deps.pending.countsByAgent()) {
      const settings = all.find((s) => s.agentId === agentId);
      if (!settings) {
        this.deps.pending.settle(this.deps.pending.forAgent(agentId).map((e) => e.id));
        this.deps.logger.warn({ agentId, count }, "heartbeat system events dropped: their agent is no longer configured");
      } else if (!settings.enabled && !this.timers.has(agentId)) {
        this.arm(settings, 0);
      }
    }
  }

  private arm(settings: HeartbeatSettings, delayMs: number): void {
    this.timers.get(settings.agentId)?.cancel();
    this.nextAt.set(settings.agentId, this.deps.clock.now() + delayMs);
    this.timers.set(
      settings.agentId,
      this.deps.clock.setTimer(() => void this.beat(settings.agentId), delayMs),
    );
  }

  private async beat(agentId: string): Promise<void> {
    const settings = this.settings().find((s) => s.agentId === agentId);
    if (!this.started || !settings || (!settings.enabled && this.deps.pending.forAgent(agentId).length === 0)) return;
    const { conversations } = this.deps;
    const beatKey = this.sessionOf(settings);
    const now = this.deps.clock.now();
    if (this.running.has(agentId) || conversations.isActive(beatKey) || this.deps.cronBusy?.(agentId)) {
      this.record({ ts: now, agentId, status: "skipped", reason: "busy: the session is at work; trying again in a minute" });
      return this.arm(settings, BUSY_RETRY_MS);
    }
    // A heartbeat that is off beats only to carry queued events; should that fail, it tries again at the default interval.
    this.arm(settings, settings.enabled ? settings.everyMs : settings.everyMs || DEFAULT_EVERY_MS);
    if (!inWindow(settings, now, this.deps.logger)) return this.record({ ts: now, agentId, status: "skipped", reason: "outside activeHours" });
    const events = this.deps.pending.forAgent(agentId);
    const file = readHeartbeatFile(this.deps.workspaceDirOf(agentId));
    if (events.length === 0 && isHeartbeatFileEmpty(file)) return this.record({ ts: now, agentId, status: "skipped", reason: "HEARTBEAT.md has no tasks" });
    this.running.add(agentId);
    try {
      await this.runTurn(settings, beatKey, events, now);
    } catch (err) {
      this.record({ ts: now, agentId, status: "failed", reason: (err as Error).message });
    } finally {
      this.running.delete(agentId);
      if (this.wokenWhileRunning.delete(agentId) && this.started) this.wakeNow(agentId);
    }
  }

  /**
   * The session beats run in: `heartbeat.session` when it names one of the agent's own sessions
   * (bare keys are the agent's), else the main session (as OpenClaw, also for another agent's key
   * or a sub-agent's).
   */
  private sessionOf(settings: HeartbeatSettings): string {
    const { conversations } = this.deps;
    const main = conversations.resolveSessionKey(undefined, settings.agentId).sessionKey;
    if (!settings.session) return main;
    try {
      const key = conversations.resolveSessionKey(settings.session, settings.agentId).sessionKey;
      return parseSessionKey(key).agentId === settings.agentId && !isSubagentSessionKey(key) ? key : main;
    } catch {
      return main;
    }
  }

  private async runTurn(settings: HeartbeatSettings, beatKey: string, events: PendingEvent[], startedAt: number): Promise<void> {
    const { conversations } = this.deps;
    const agentId = settings.agentId;
    const mainKey = conversations.resolveSessionKey(undefined, agentId).sessionKey;
    const isolatedKey = beatKey === mainKey ? conversations.resolveSessionKey("heartbeat", agentId).sessionKey : `${beatKey}:heartbeat`;
    const sessionKey = settings.isolatedSession ? isolatedKey : beatKey;
    if (settings.isolatedSession) conversations.reset({ sessionKey, method: "agent" });
    const message = events.length > 0 ? `${settings.prompt}\n\nSystem events since the last heartbeat:\n${events.map((e) => `- ${e.text}`).join("\n")}` : settings.prompt;
    const outcome = await conversations.submit({
      message,
      sessionKey,
      agentId,
      idempotencyKey: `heartbeat:${agentId}:${startedAt}:${Math.random().toString(36).slice(2, 8)}`,
      method: "agent",
      internal: { mergeable: false },
      provenance: { kind: "internal_system", sourceTool: "heartbeat" },
      turnSettings: {
        ...(settings.model ? { modelOverride: settings.model } : {}),
        ...(settings.lightContext ? { lightContext: true } : {}),
        timeoutSeconds: settings.timeoutSeconds,
        // Nobody waits on a heartbeat: it may not stop to ask the user.
        runToolDeny: { source: "heartbeat", entries: ["ask_user"] },
        heartbeat: true,
      },
    });
    const run = outcome.kind === "accepted" ? outcome.run : outcome.kind === "duplicate" ? outcome.run : undefined;
    if (!run) return this.record({ ts: startedAt, agentId, status: "failed", reason: outcome.kind === "rejected" ? outcome.notice : "not accepted" });
    const ended = await run.done;
    const durationMs = this.deps.clock.now() - startedAt;
    // A failed beat leaves its events queued: the next beat carries them again.
    if (ended.status !== "ok") return this.record({ ts: startedAt, agentId, status: "failed", reason: ended.result?.error?.message ?? ended.status, durationMs });
    this.deps.pending.settle(events.map((e) => e.id));
    // A heartbeat_respond report decides over the reply's text: notify=false is an acknowledgement.
    const report = ended.result?.heartbeatReport;
    if (report && !report.notify) {
      const okEvent: HeartbeatEvent = { ts: startedAt, agentId, status: "ok-token", durationMs, preview: report.summary.slice(0, PREVIEW_CHARS) };
      return this.acknowledge(settings, beatKey, okEvent, run.runId);
    }
    const { text, acked } = report ? { text: heartbeatNotification(report), acked: false } : stripHeartbeatToken(runReplyText(ended));
    if (!text && !acked) return this.record({ ts: startedAt, agentId, status: "ok-empty", durationMs });
    if (acked && text.length <= settings.ackMaxChars) {
      const okEvent: HeartbeatEvent = { ts: startedAt, agentId, status: "ok-token", durationMs, ...(text ? { reason: "acknowledged; the short remainder was dropped" } : {}) };
      return this.acknowledge(settings, beatKey, okEvent, run.runId);
    }
    const route = this.route(settings, beatKey);
    const preview = text.slice(0, PREVIEW_CHARS);
    if ("none" in route) {
      if (settings.target === "none") return this.record({ ts: startedAt, agentId, status: "ok-empty", reason: route.none, preview, durationMs });
      // A reply meant for a chat that cannot be reached is said out loud, not dropped quietly.
      this.deps.logger.warn(
        { agentId, target: settings.target, reason: route.none },
        "heartbeat reply not delivered: its target cannot be reached (fix target, to or accountId under agents.defaults.heartbeat or the agent's own heartbeat)",
      );
      return this.record({ ts: startedAt, agentId, status: "skipped", reason: route.none, preview, durationMs });
    }
    const visibility = this.deps.channels()!.heartbeatVisibility(route);
    if (!visibility.showAlerts) {
      const reason = `heartbeatVisibility.showAlerts is off for ${route.channel}: the reply stays in the session`;
      return this.record({ ts: startedAt, agentId, status: "skipped", reason, preview, durationMs, channel: route.channel, to: route.to }, visibility);
    }
    await this.deps.channels()!.send(route, text, `heartbeat:${run.runId}`);
    this.record({ ts: startedAt, agentId, status: "sent", preview, durationMs, channel: route.channel, to: route.to }, visibility);
  }

  /** An acknowledgement (HEARTBEAT_OK): kept in the session, or sent where the target's channel shows them (`heartbeatVisibility.showOk`). */
  private async acknowledge(settings: HeartbeatSettings, beatKey: string, event: HeartbeatEvent, runId: string): Promise<void> {
    const route = settings.target === "none" ? { none: "" } : this.route(settings, beatKey);
    if ("none" in route) return this.record(event);
    const visibility = this.deps.channels()!.heartbeatVisibility(route);
    if (visibility.showOk) {
      await this.deps.channels()!.send(route, HEARTBEAT_OK, `heartbeat:${runId}`);
      return this.record({ ...event, reason: "acknowledgement sent (heartbeatVisibility.showOk)", channel: route.channel, to: route.to }, visibility);
    }
    this.record(event, visibility);
  }

  /** Where a reply goes: the target's chat, checked, and never a DM under `directPolicy: block`. */
  private route(settings: HeartbeatSettings, beatKey: string): ChatRoute | { none: string } {
    if (settings.target === "none") return { none: "target is none: the reply stays in the session" };
    const channels = this.deps.channels();
    if (!channels) return { none: "no chat channel is configured" };
    let route: ChatRoute | undefined;
    if (settings.target === "owner") {
      route = channels.ownerRoute(beatKey, settings.accountId);
      if (!route) return { none: OWNER_UNKNOWN };
      if (settings.directPolicy === "block") return { none: DM_BLOCKED };
    } else {
      if (settings.target === "last") route = channels.lastRoute(beatKey);
      else if (settings.to) route = { channel: settings.target, to: settings.to };
      if (!route) return { none: settings.target === "last" ? "the heartbeat's session has no chat yet" : `target ${settings.target} needs heartbeat.to (the chat to send to)` };
      if (settings.accountId) route.accountId = settings.accountId;
      if (settings.to && settings.target === "last") route = { ...route, to: settings.to, chatType: undefined };
      if (settings.directPolicy === "block" && channels.isDirect(route)) return { none: DM_BLOCKED };
    }
    const check = channels.check(route);
    return check.ok ? route : { none: check.reason };
  }

  /** The beat's outcome: kept for `last-heartbeat`, logged, and told to operators unless its channel hides status events (`useIndicator`). */
  private record(event: HeartbeatEvent, visibility?: HeartbeatVisibility): void {
    this.last = event;
    if (event.status === "failed") this.deps.logger.warn({ agentId: event.agentId, reason: event.reason }, "heartbeat failed");
    else this.deps.logger.debug({ ...event }, "heartbeat");
    if (visibility?.useIndicator !== false) this.deps.emit(event);
  }
}

const DM_BLOCKED = "the target is a DM and heartbeat.directPolicy is block: the reply stays in the session";

const OWNER_UNKNOWN =
  "target is owner, but no owner's DM is known: name yourself in commands.ownerAllowFrom (telegram:<user id>, discord:<user id>, slack:<U… id>) or in a channel's allowFrom";

function readHeartbeatFile(workspaceDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(workspaceDir, "HEARTBEAT.md"), "utf8");
  } catch {
    return undefined;
  }
}

function inWindow(settings: HeartbeatSettings, now: number, logger: Logger): boolean {
  try {
    return withinActiveHours(settings.activeHours, now);
  } catch (err) {
    logger.warn({ agentId: settings.agentId, err: (err as Error).message }, "heartbeat activeHours has an unknown time zone; beating at any hour");
    return true;
  }
}

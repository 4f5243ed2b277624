import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { applyDefaults } from "../../../src/config/defaults.js";
import type { HeartbeatVisibility, OpenClawConfig } from "../../../src/config/index.js";
import { CronService } from "../../../src/cron/cron-service.js";
import type { ChatRoute, CronChannelPort, CronEvent, RouteCheck } from "../../../src/cron/ports.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { FakeCronConversations } from "./fake-cron-conversations.js";
import { namesDirectChat } from "../../../src/channels/routing/owner-route.js";

/** A chat side that records what was sent, once per idempotency key (as the delivery ledger does). */
export class FakeChannels implements CronChannelPort {
  readonly sent: { route: ChatRoute; text: string; key: string }[] = [];
  readonly keys = new Set<string>();
  configured = new Set(["telegram"]);
  failNext = 0;

  check(route: ChatRoute): RouteCheck {
    if (!this.configured.has(route.channel)) return { ok: false, reason: `channel ${route.channel} is not configured (add channels.${route.channel})`, permanent: true };
    return { ok: true };
  }

  async send(route: ChatRoute, text: string, key: string): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error("platform down");
    }
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.sent.push({ route, text, key });
  }

  /** Each session's last chat (`lastRoute`); none unless a test sets one. */
  readonly lastRoutes = new Map<string, ChatRoute>();
  readonly lastRouteAsked: string[] = [];

  lastRoute(sessionKey: string): ChatRoute | undefined {
    this.lastRouteAsked.push(sessionKey);
    const route = this.lastRoutes.get(sessionKey);
    return route ? { ...route } : undefined;
  }

  isDirect(route: ChatRoute): boolean {
    return route.chatType !== undefined ? route.chatType === "direct" : namesDirectChat(route.channel, route.to);
  }

  /** What heartbeats show per channel; OpenClaw's defaults unless a test sets a channel's. */
  readonly visibility = new Map<string, Partial<HeartbeatVisibility>>();

  heartbeatVisibility(route: ChatRoute): HeartbeatVisibility {
    return { showOk: false, showAlerts: true, useIndicator: true, ...this.visibility.get(route.channel) };
  }

  /** The owner's DM `ownerRoute` answers (none unless a test sets it). */
  owner: ChatRoute | undefined;

  ownerRoute(): ChatRoute | undefined {
    return this.owner;
  }

  deliverSessionRun(): void {}
}

export interface Harness {
  stateDir: string;
  clock: ManualClock;
  conversations: FakeCronConversations;
  channels: FakeChannels;
  events: CronEvent[];
  service: CronService;
  config: OpenClawConfig;
  /** A second service on the same state dir (a restart). */
  restart(): Promise<CronService>;
}

export function tempStateDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "openclaw-cron-"));
}

export async function cronHarness(options: { now?: number; cron?: Record<string, unknown>; env?: NodeJS.ProcessEnv; stateDir?: string } = {}): Promise<Harness> {
  const stateDir = options.stateDir ?? tempStateDir();
  const clock = new ManualClock(options.now ?? Date.parse("2026-06-01T08:00:00Z"));
  const conversations = new FakeCronConversations();
  const channels = new FakeChannels();
  const events: CronEvent[] = [];
  const config = applyDefaults({ ...(options.cron ? { cron: options.cron } : {}) } as never);
  const make = () =>
    new CronService({
      stateDir,
      config: () => config,
      conversations,
      channels: () => channels,
      logger: pino({ level: "silent" }),
      env: options.env ?? {},
      emit: (event) => events.push(event),
      clock,
    });
  const service = make();
  await service.start();
  return {
    stateDir,
    clock,
    conversations,
    channels,
    events,
    service,
    config,
    async restart() {
      const next = make();
      await next.start();
      return next;
    },
  };
}

/** Lets the promise chains of finished runs settle (runs end in microtasks). */
export async function settle(service: CronService): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    await service.whenIdle();
  }
}

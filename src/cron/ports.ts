import type { ConversationPort, ConversationRun } from "../agents/conversation-port.js";
import type { HeartbeatVisibility } from "../config/index.js";

/** What scheduled runs need of the conversation core. */
export type CronConversations = Pick<ConversationPort, "submit" | "reset" | "resolveSessionKey" | "runs" | "isActive">;

/** Where a reply goes in a chat. */
export interface ChatRoute {
  channel: string;
  to: string;
  accountId?: string;
  threadId?: string;
  /** The kind of chat (`direct`, `group`, `channel`) when known (a session's last chat). */
  chatType?: string;
}

export type RouteCheck =
  | { ok: true }
  | {
      ok: false;
      reason: string;
      /** The route can never work as written (channel not configured), not a passing outage. */
      permanent: boolean;
      /** The route's field at fault. */
      field?: "channel" | "accountId";
    };

/**
 * Chat delivery as the scheduler needs it; the gateway fills it with the channel manager, whose
 * delivery ledger makes each `idempotencyKey` go out once, also across a crash and a retry.
 */
export interface CronChannelPort {
  check(route: ChatRoute): RouteCheck;
  send(route: ChatRoute, text: string, idempotencyKey: string): Promise<void>;
  /** The chat a session's conversation last came from (`channel: "last"`). */
  lastRoute(sessionKey: string): ChatRoute | undefined;
  /** The owner's DM (a heartbeat's `target: "owner"`), its channel tried first when `sessionKey` last talked on one; `accountId` picks the account. */
  ownerRoute(sessionKey: string, accountId?: string): ChatRoute | undefined;
  /** Whether the route is a DM: its recorded chat type, else what its target's form says. */
  isDirect(route: ChatRoute): boolean;
  /** What heartbeats show in the route's channel (`heartbeatVisibility`: its account's, its channel's, `channels.defaults`'). */
  heartbeatVisibility(route: ChatRoute): HeartbeatVisibility;
  /** A run the runtime started in a session that lives in a chat: its answer goes there (through the ledger). */
  deliverSessionRun(sessionKey: string, run: ConversationRun): void;
}

/** Events the scheduler tells operators about (the gateway broadcasts them as `cron`). */
export type CronEvent =
  | { action: "added" | "updated" | "removed"; jobId: string }
  | { action: "started"; jobId: string; runId: string; runAtMs: number }
  | { action: "finished"; jobId: string; runId: string; status: string; error?: string; durationMs: number; nextRunAtMs?: number; deliveryStatus: string }
  | { action: "alert"; jobId: string; jobName: string; consecutiveErrors: number; lastError?: string }
  | { action: "disabled"; jobId: string; reason: string };

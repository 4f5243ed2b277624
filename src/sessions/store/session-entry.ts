import type { Usage } from "../../models/messages.js";
import type { StoredProgressCard } from "../progress-card/progress-card.js";
import type { SessionGoal } from "../goal/session-goal.js";
import type { GoalOperationReceipt } from "../goal/goal-operations.js";

/**
 * One row of `sessions.json`: what the gateway knows about a session without reading its
 * transcript. Field names follow OpenClaw's file-era SessionEntry so community tools that read
 * `sessions.json` keep working. Fields this type does not name but that are found on disk (written
 * by a newer build) are kept as they are.
 */
export interface SessionOrigin {
  label?: string;
  provider?: string;
  surface?: string;
  chatType?: string;
  from?: string;
  to?: string;
  accountId?: string;
  threadId?: string;
}

export interface SessionEntry {
  /** Current transcript generation (uuid); a reset assigns a new one to the same key. */
  sessionId: string;
  sessionKey: string;
  agentId: string;
  /** Absolute path of `<sessionId>.jsonl`; always derived from the id, never read from disk. */
  sessionFile: string;
  /** Epoch ms of the last change (message, metadata). */
  updatedAt: number;
  /** Epoch ms when this sessionId started (daily resets key off it). */
  sessionStartedAt: number;
  label?: string;
  displayName?: string;
  chatType?: string;
  channel?: string;
  origin?: SessionOrigin;
  lastChannel?: string;
  lastTo?: string;
  lastAccountId?: string;
  lastThreadId?: string;
  /** The kind of chat (`direct`, `group`, `channel`) the session's last channel message came from. */
  lastChatType?: string;
  /** The platform's id of the session's last inbound channel message: the one a `message` react without `messageId` reacts to. */
  lastMessageId?: string;
  modelOverride?: string;
  /** `user` when a person chose `modelOverride` (`/model`, `sessions.patch`): that choice is strict, no fallback. */
  modelOverrideSource?: "user" | "spawn";
  providerOverride?: string;
  thinkingLevel?: string;
  skillsSnapshot?: unknown;
  /** Prompt tokens (input + cache read + cache write) summed over this sessionId's runs. */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Size of the latest prompt, as reported by the runner (for "context used" displays). */
  contextTokens?: number;
  /** Prompt tokens served from the provider's cache, summed over this sessionId's runs (also counted in inputTokens). */
  cacheRead?: number;
  /** Prompt tokens written to the provider's cache, summed over this sessionId's runs (also counted in inputTokens). */
  cacheWrite?: number;
  /** Estimated US dollars of this sessionId's runs at the models' configured `cost`; absent while no run had a priced model. */
  estimatedCostUsd?: number;
  abortedLastRun?: boolean;
  /** The run allowed to append (writer fencing); absent when no run holds the session. */
  activeWriterRunId?: string;
  spawnedBy?: string;
  spawnDepth?: number;
  /** Transcript `message` lines written for this sessionId. */
  messageCount: number;
  // Less central fields, typed so callers can patch them without casts.
  lastInteractionAt?: number;
  lastActivityAt?: number;
  subject?: string;
  verboseLevel?: string;
  reasoningLevel?: string;
  elevatedLevel?: string;
  sendPolicy?: "allow" | "deny";
  /** `/usage`, `sessions.patch responseUsage`: the usage footer on this session's chat replies; absent: `messages.responseUsage`. */
  responseUsage?: "off" | "tokens" | "full";
  groupActivation?: "mention" | "always";
  /** `/tts on|off|always|inbound`: this chat's Auto-TTS mode, over `tts.enable`/`tts.disable` and `tts.auto`; absent: theirs. */
  ttsAuto?: "off" | "always" | "inbound";
  /** `/queue <mode>`: how messages that arrive during a reply are handled in this session; absent: the configured default. */
  queueMode?: "steer" | "followup" | "collect" | "interrupt";
  model?: string;
  modelProvider?: string;
  deliveryContext?: { channel?: string; to?: string; accountId?: string; threadId?: string };
  systemSent?: boolean;
  compactionCount?: number;
  memoryFlushAt?: number;
  /** The `compactionCount` at the last pre-compaction memory flush (one flush per cycle). */
  memoryFlushCompactionCount?: number;
  archivedAt?: number;
  /** Pinned sessions are never pruned. */
  pinnedAt?: number;
  /** The session's progress card (`progress_card`, `progressCard.put`); after a clear, a tombstone with only its revision. */
  progressCard?: StoredProgressCard;
  /** The session's goal (`/goal`, the goal tools, `sessions.goal.*`); a reset drops it with the transcript. */
  goal?: SessionGoal;
  /** Answers of recent client goal controls by operation id (`sessions.goal.*`), so a retry is answered, not repeated. */
  goalOperations?: Record<string, GoalOperationReceipt>;
}

/** Fields a caller may set when a session is created. */
export type SessionInit = Partial<
  Pick<
    SessionEntry,
    | "label"
    | "displayName"
    | "chatType"
    | "channel"
    | "origin"
    | "lastChannel"
    | "lastTo"
    | "lastAccountId"
    | "lastThreadId"
    | "lastChatType"
    | "lastMessageId"
    | "modelOverride"
    | "providerOverride"
    | "thinkingLevel"
    | "skillsSnapshot"
    | "spawnedBy"
  >
> & {
  /** Working directory recorded in the transcript header (the agent's workspace). */
  cwd?: string;
  /** Optional cross-check: must match the agent named in the session key. */
  agentId?: string;
};

/** Fields owned by the store: a patch can never change them. */
export const STORE_OWNED_FIELDS = ["sessionId", "sessionKey", "agentId", "sessionFile", "activeWriterRunId", "sessionStartedAt"] as const;
type StoreOwned = (typeof STORE_OWNED_FIELDS)[number];

/**
 * Fields that describe one transcript generation. A reset drops them (the new sessionId starts
 * from zero); everything else — labels, routing, the user's model and level choices, pins, and
 * fields a newer build wrote — carries over to the new generation.
 */
export const PER_GENERATION_FIELDS = [
  "updatedAt",
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "contextTokens",
  "cacheRead",
  "cacheWrite",
  "estimatedCostUsd",
  "messageCount",
  "abortedLastRun",
  "activeWriterRunId",
  "skillsSnapshot",
  "compactionCount",
  "memoryFlushAt",
  "memoryFlushCompactionCount",
  "systemSent",
  "lastInteractionAt",
  "lastActivityAt",
  "archivedAt",
  "model",
  "modelProvider",
  // The goal belongs to the work of this transcript: /new and /reset start without one.
  "goal",
  "goalOperations",
] as const;

/** A metadata update: a field set to `null` is removed (how `sessions.patch` clears a setting). */
export type SessionPatch = { [K in Exclude<keyof SessionEntry, StoreOwned>]?: SessionEntry[K] | null };

/** Bookkeeping that travels with an append (applied to the index, coalesced). */
export interface AppendMeta {
  /** Usage of the model call that produced these messages; added to the session's counters. */
  usage?: Usage;
  /** Latest prompt size in tokens. */
  contextTokens?: number;
  /** Extra metadata to record with the same (coalesced) index update. */
  patch?: SessionPatch;
  /**
   * Write now, fsync later: the append returns once the bytes are written, and the caller must
   * await `whenDurable(sessionKey)` before acknowledging anything (concurrent appends then share
   * one fsync off the event loop).
   */
  deferSync?: boolean;
}

import type { ModelMessage, TranscriptMessage } from "../agents/types.js";
import { afterLatestCompaction, compactionSummaryMessage, toHistoryItems } from "../sessions/history/index.js";
import { isMessageEntry, type SessionPatch, type SessionStore, type TranscriptMessageEntry } from "../sessions/store/index.js";
import { withdrawalEntry, withdrawnEntryIds, type WithdrawalReason } from "../sessions/store/index.js";
import { orderForDisplay, userKey } from "./conversation-order.js";
import { ConversationWindow } from "./conversation-window.js";
import { SessionCache } from "./session-cache.js";
import type { CompactionInput } from "../sessions/compaction/index.js";

/** A message as written to a session's transcript, with its entry id. */
export interface AppendedMessage {
  id: string;
  message: TranscriptMessage;
}

/** Hears every message written to a transcript, once it is written (not yet fsynced). */
export type MessagesAppended = (sessionKey: string, appended: readonly AppendedMessage[], runId: string | null) => void;

/** Sessions whose history window (model projections) stays in memory between turns. */
const WINDOW_CACHE_SESSIONS = 256;
/** Sessions whose full transcript stays parsed for readers (chat.history, tools, sub-agents). */
const TRANSCRIPT_CACHE_SESSIONS = 16;

/**
 * The sessions' histories as the core reads them: every write goes through `append`, which keeps
 * the cached windows and transcripts in step with the file, so a turn never re-reads a whole
 * transcript. Caches belong to a session id: a reset session is read afresh.
 */
export class HistoryCache {
  /** History windows of recently active sessions, so a turn does not re-read its whole file. */
  private readonly windows = new SessionCache<ConversationWindow>(WINDOW_CACHE_SESSIONS);
  /** Parsed transcripts of sessions recently read whole (history, display, tools). */
  private readonly transcripts = new SessionCache<TranscriptMessage[]>(TRANSCRIPT_CACHE_SESSIONS);
  /** Each cached transcript message's entry id (`chat.history` rows carry it; `chat.message.get` looks it up). */
  private readonly entryIds = new WeakMap<object, string>();

  constructor(
    private readonly store: SessionStore,
    private readonly onAppended?: MessagesAppended,
  ) {}

  /** The session's transcript messages, oldest first (read-only: callers must not mutate). */
  history(sessionKey: string): readonly TranscriptMessage[] {
    const entry = this.store.peek(sessionKey);
    if (!entry) return [];
    const cached = this.transcripts.get(sessionKey, entry.sessionId);
    if (cached) return cached;
    const { entries } = this.store.readTranscript(sessionKey);
    const withdrawn = withdrawnEntryIds(entries);
    const messages = entries.filter((e) => e.type === "message" && !withdrawn.has(e.id)).map((e) => this.remember(e.message as TranscriptMessage, e.id));
    this.transcripts.set(sessionKey, entry.sessionId, messages);
    return messages;
  }

  /** The transcript entry id of a message `history` or `displayHistory` returned. */
  entryIdOf(message: TranscriptMessage): string | undefined {
    return this.entryIds.get(message);
  }

  private remember(message: TranscriptMessage, id: string): TranscriptMessage {
    this.entryIds.set(message, id);
    return message;
  }

  /** The conversation as chat surfaces show it: questions before their answers, waiting messages after earlier ones. */
  displayHistory(sessionKey: string): TranscriptMessage[] {
    return orderForDisplay(this.history(sessionKey));
  }

  /**
   * What a new turn sees as history: the newest part of the ordered conversation that fits the
   * budget, without the user messages of `unfinishedRuns` — the turn's own (they are its prompt)
   * and those still waiting in the queue. Kept up to date message by message
   * (ConversationWindow), so a long session does not re-walk its whole transcript every turn.
   */
  window(sessionKey: string, tokenBudget: number, unfinishedRuns: ReadonlySet<string>, beforeSelect?: (window: ConversationWindow) => void, maxUserTurns?: number): ModelMessage[] {
    const entry = this.store.peek(sessionKey);
    if (!entry) return [];
    let window = this.windows.get(sessionKey, entry.sessionId);
    if (!window) {
      // From the file's entries: a compaction summary (kept across rotation) stands for
      // everything before its first kept message and goes first in every turn's history.
      const { summary, messages } = afterLatestCompaction(toHistoryItems(this.store.readTranscript(sessionKey).entries));
      window = new ConversationWindow(
        messages.map((item) => item.message),
        summary && { message: compactionSummaryMessage(summary), text: summary.summary },
        messages.map((item) => item.id),
      );
      this.windows.set(sessionKey, entry.sessionId, window);
    }
    beforeSelect?.(window);
    return window.window(tokenBudget, unfinishedRuns, maxUserTurns);
  }

  /** The whole context since the latest compaction (summary included), in tokens; undefined when not cached. O(1). */
  contextTokens(sessionKey: string): number | undefined {
    return this.cachedWindow(sessionKey)?.contextTokens;
  }

  /** What a compaction plans from, from the cached window; undefined when not cached (read the transcript then). */
  compactionInput(sessionKey: string): CompactionInput | undefined {
    return this.cachedWindow(sessionKey)?.compactionInput();
  }

  /** A compaction entry was appended: the cached window drops what it summarized (or is read afresh next time). */
  applyCompaction(sessionKey: string, firstKeptEntryId: string, summary: string): void {
    const window = this.cachedWindow(sessionKey);
    if (!window?.applyCompaction(firstKeptEntryId, { message: compactionSummaryMessage({ summary, timestamp: Date.now() }), text: summary })) this.windows.delete(sessionKey);
  }

  private cachedWindow(sessionKey: string): ConversationWindow | undefined {
    return this.windows.peek(sessionKey, this.store.peek(sessionKey)?.sessionId);
  }

  /**
   * Append to the transcript and the cached history (with `patch` recorded on the session's row
   * in the same update); the caller awaits `store.whenDurable` before acknowledging. Returns the
   * entries written, with their ids.
   */
  append(sessionKey: string, runId: string | null, messages: TranscriptMessage[], patch?: SessionPatch): readonly TranscriptMessageEntry[] {
    const written = this.store.appendMessages(sessionKey, runId, messages, { deferSync: true, ...(patch ? { patch } : {}) });
    const sessionId = this.store.peek(sessionKey)?.sessionId;
    const window = this.windows.peek(sessionKey, sessionId);
    const transcript = this.transcripts.peek(sessionKey, sessionId);
    for (const e of written) {
      window?.add(e.message as TranscriptMessage, e.id);
      transcript?.push(this.remember(e.message as TranscriptMessage, e.id));
    }
    this.onAppended?.(sessionKey, written as readonly AppendedMessage[], runId);
    return written;
  }

  /**
   * The user messages of `runIds` left the queue without reaching the model: a withdrawal marker
   * per message goes to the transcript (withdrawn-messages.ts), and the cached history and window
   * drop them, so no later turn, `chat.history` or restart brings them back. Runs whose message
   * is not in the transcript get no marker. Resolves once the markers are on disk.
   */
  withdraw(sessionKey: string, runIds: readonly string[], reason: WithdrawalReason): Promise<void> {
    const sessionId = this.store.peek(sessionKey)?.sessionId;
    if (sessionId === undefined || runIds.length === 0) return Promise.resolve();
    const window = this.windows.peek(sessionKey, sessionId);
    const transcript = this.transcripts.peek(sessionKey, sessionId);
    let onFile: Map<string, string> | undefined;
    const targets = new Map<string, string>();
    for (const runId of runIds) {
      // The cached window or transcript usually holds a queued message; the file is the last resort.
      const id = window?.userEntryId(runId) ?? (transcript && this.cachedUserEntryId(transcript, runId)) ?? (onFile ??= this.userEntryIdsOnFile(sessionKey)).get(runId);
      if (id !== undefined) targets.set(id, runId);
    }
    if (targets.size === 0) return Promise.resolve();
    this.store.appendEntries(
      sessionKey,
      null,
      [...targets].map(([id, runId]) => withdrawalEntry(id, runId, reason)),
      { deferSync: true },
    );
    for (const id of targets.keys()) window?.withdraw(id);
    if (transcript)
      this.transcripts.set(
        sessionKey,
        sessionId,
        transcript.filter((m) => !targets.has(this.entryIds.get(m) ?? "")),
      );
    return this.store.whenDurable(sessionKey);
  }

  private cachedUserEntryId(transcript: readonly TranscriptMessage[], runId: string): string | undefined {
    for (let i = transcript.length - 1; i >= 0; i -= 1) if (userKey(transcript[i]!) === runId) return this.entryIds.get(transcript[i]!);
    return undefined;
  }

  /** Idempotency key → entry id of every user message on file (the newest wins). */
  private userEntryIdsOnFile(sessionKey: string): Map<string, string> {
    const ids = new Map<string, string>();
    for (const entry of this.store.readTranscript(sessionKey).entries) {
      if (!isMessageEntry(entry)) continue;
      const key = userKey(entry.message);
      if (key !== undefined) ids.set(key, entry.id);
    }
    return ids;
  }

  /** Drops what is cached for the session (its transcript was rotated): read afresh next time. */
  forget(sessionKey: string): void {
    this.windows.delete(sessionKey);
    this.transcripts.delete(sessionKey);
  }
}

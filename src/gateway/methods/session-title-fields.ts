import fs from "node:fs";
import type { TranscriptMessage } from "../../agents/types.js";
import { orderForDisplay } from "../../conversations/conversation-order.js";
import { isMessageEntry, readTranscriptHead, readTranscriptTailWindow, withdrawnEntryIds, type SessionEntry, type TranscriptEnd } from "../../sessions/store/index.js";
import { deriveSessionTitle, namedSessionTitle } from "../../sessions/session-title.js";
import { isInterSessionMessage, sessionMessageText } from "./session-message-text.js";

/**
 * `derivedTitle` and `lastMessagePreview` of session rows (`sessions.list` / `sessions.describe`
 * with `includeDerivedTitles` / `includeLastMessage`). Only the ends of a transcript are read:
 * the first user message among its first 100 messages, the last shown message among its last
 * 100, each from a 64 KiB window doubled while it finds nothing. What was read is kept per
 * transcript file and used again while the file is the same one (its inode) and, for the tail,
 * has not grown, so listing the same sessions again reads nothing but their file's metadata.
 */

const WINDOW_BYTES = 64 * 1024;
const MAX_PROBE_MESSAGES = 100;
const MAX_CACHED_FILES = 2048;

export interface TitleFieldRequest {
  derivedTitle: boolean;
  lastMessage: boolean;
}

export interface TitleFields {
  derivedTitle?: string;
  lastMessagePreview?: string;
}

interface CachedEnds {
  ino: number;
  /** The first user message's text (null: none among the first 100 messages); kept while the file is the same one. */
  first?: { text: string | null; size: number };
  /** The last shown message's text; kept while the file is the same one at the same size and mtime. */
  last?: { text: string | null; size: number; mtimeMs: number };
}

export class SessionTitleFields {
  private readonly cache = new Map<string, CachedEnds>();

  /** `row` with the fields asked for added: the same object, untouched (no file is looked at) when none is asked for. */
  addTo<R extends Record<string, unknown>>(row: R, entry: SessionEntry, want: TitleFieldRequest): R {
    if (!want.derivedTitle && !want.lastMessage) return row;
    return Object.assign(row, this.fieldsOf(entry, want));
  }

  fieldsOf(entry: SessionEntry, want: TitleFieldRequest): TitleFields {
    if (!want.derivedTitle && !want.lastMessage) return {};
    const named = want.derivedTitle ? namedSessionTitle(entry) : undefined;
    if (!want.lastMessage && named) return { derivedTitle: named };
    const file = entry.sessionFile;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return named ? { derivedTitle: named } : {};
    }
    let cached = this.cache.get(file);
    if (cached?.ino !== stat.ino) cached = { ino: stat.ino };
    this.cache.delete(file);
    this.cache.set(file, cached);
    if (this.cache.size > MAX_CACHED_FILES) this.cache.delete(this.cache.keys().next().value!);

    const fields: TitleFields = {};
    if (want.derivedTitle) {
      let firstText: string | null | undefined;
      if (!named) {
        // A first message once found stays the first; "none yet" holds only until the file grows.
        if (!cached.first || (cached.first.text === null && cached.first.size !== stat.size)) cached.first = { text: firstUserText(file), size: stat.size };
        firstText = cached.first.text;
      }
      const title = deriveSessionTitle(entry, firstText ?? undefined);
      if (title) fields.derivedTitle = title;
    }
    if (want.lastMessage) {
      const last = cached.last;
      if (!last || last.size !== stat.size || last.mtimeMs !== stat.mtimeMs) cached.last = { text: lastShownText(file), size: stat.size, mtimeMs: stat.mtimeMs };
      if (cached.last!.text) fields.lastMessagePreview = cached.last!.text;
    }
    return fields;
  }
}

/** The messages of a window, without those a withdrawal marker in it takes back. */
function windowMessages(end: TranscriptEnd): TranscriptMessage[] {
  const withdrawn = withdrawnEntryIds(end.entries);
  return end.entries.filter((e) => isMessageEntry(e) && !withdrawn.has(e.id)).map((e) => e.message as TranscriptMessage);
}

/** The text of the first message a person sent (not another session), among the transcript's first 100 messages. */
function firstUserText(file: string): string | null {
  for (let window = WINDOW_BYTES; ; window *= 2) {
    const head = readTranscriptHead(file, window);
    const messages = windowMessages(head).slice(0, MAX_PROBE_MESSAGES);
    for (const message of messages) {
      if (message.role !== "user" || isInterSessionMessage(message)) continue;
      const shown = sessionMessageText(message);
      if (shown) return shown.text;
    }
    if (head.whole || messages.length >= MAX_PROBE_MESSAGES) return null;
  }
}

/**
 * The text of the last message the conversation shows (chat.history's order: a message that
 * waited in the queue shows after the turn it waited for), flattened to one line, among the
 * transcript's last 100 messages.
 */
function lastShownText(file: string): string | null {
  for (let window = WINDOW_BYTES; ; window *= 2) {
    const tail = readTranscriptTailWindow(file, window);
    const messages = windowMessages(tail);
    const enough = tail.whole || messages.length >= MAX_PROBE_MESSAGES;
    // A window that starts inside a turn lacks the message that turn answers, and so its order.
    if (!enough && cutsATurn(messages)) continue;
    const shown = orderForDisplay(messages).slice(-MAX_PROBE_MESSAGES);
    for (let i = shown.length - 1; i >= 0; i -= 1) {
      const text = sessionMessageText(shown[i]!, { flattenMarkdown: true });
      if (text) return text.text;
    }
    if (enough) return null;
  }
}

/** True when an answer in `messages` names a user message (by idempotency key) that is not among them. */
function cutsATurn(messages: readonly TranscriptMessage[]): boolean {
  const keys = new Set<string>();
  for (const m of messages) {
    const key = (m as { idempotencyKey?: unknown }).idempotencyKey;
    if (m.role === "user" && typeof key === "string") keys.add(key);
  }
  return messages.some((m) => {
    const answers = (m as { answers?: unknown }).answers;
    return m.role === "assistant" && Array.isArray(answers) && answers.some((k) => typeof k === "string" && !keys.has(k));
  });
}

import { randomUUID } from "node:crypto";
import type { TranscriptMessage } from "../../models/messages.js";

/**
 * The transcript line format (pi-coding-agent session format v3): a `session` header, then
 * one entry per line chained by `id`/`parentId`. The header also carries `sessionKey` and
 * `agentId` (extra fields other readers ignore) so a lost `sessions.json` can be rebuilt from
 * the transcripts alone.
 */

export const TRANSCRIPT_VERSION = 3;

export interface TranscriptHeader {
  type: "session";
  version: number;
  /** The sessionId. */
  id: string;
  timestamp: string;
  cwd: string;
  sessionKey?: string;
  agentId?: string;
  parentSession?: string;
  /** Archive this file continues after a size rotation (file name only). */
  rotatedFrom?: string;
  [extra: string]: unknown;
}

export interface TranscriptEntry {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  [extra: string]: unknown;
}

export interface TranscriptMessageEntry extends TranscriptEntry {
  type: "message";
  message: TranscriptMessage;
}

/** What a caller appends: an entry without the fields the store assigns. */
export type TranscriptEntryInput = { type: string; [extra: string]: unknown };

export function buildHeader(fields: { sessionId: string; cwd: string; now: number; sessionKey: string; agentId: string; extra?: Record<string, unknown> }): TranscriptHeader {
  return {
    type: "session",
    version: TRANSCRIPT_VERSION,
    id: fields.sessionId,
    timestamp: new Date(fields.now).toISOString(),
    cwd: fields.cwd,
    sessionKey: fields.sessionKey,
    agentId: fields.agentId,
    ...fields.extra,
  };
}

export function isMessageEntry(entry: TranscriptEntry): entry is TranscriptMessageEntry {
  const message = entry.message as { role?: unknown } | null | undefined;
  return entry.type === "message" && typeof message === "object" && message !== null && typeof message.role === "string";
}

/**
 * Assigns ids, parent links and a timestamp. Ids are 8 random hex chars as the format wants;
 * with ~4 billion values a repeat inside one transcript is rare, and it is only guarded against
 * within a batch and against the parent, because every reader in this clone walks the file in
 * order rather than looking entries up by id.
 */
export function chainEntries(inputs: readonly TranscriptEntryInput[], parentId: string | null, now: number): TranscriptEntry[] {
  const timestamp = new Date(now).toISOString();
  const used = new Set<string>(parentId ? [parentId] : []);
  let parent = parentId;
  return inputs.map((input) => {
    let id = newEntryId();
    while (used.has(id)) id = newEntryId();
    used.add(id);
    // The store's fields lead the line (as in the format's examples) and cannot be overridden.
    const { type, id: _id, parentId: _parent, timestamp: _ts, ...rest } = input;
    const entry: TranscriptEntry = { type, id, parentId: parent, timestamp, ...rest };
    parent = id;
    return entry;
  });
}

export function newEntryId(): string {
  // 32 random bits as 8 hex digits. randomUUID draws from a pooled buffer (one
  // getrandom per 128 ids), where randomBytes(4) paid for a fresh draw on every entry; a
  // v4 UUID's first 8 digits are all random (its fixed version digit comes later).
  return randomUUID().slice(0, 8);
}

/** JSON lines with a trailing newline, so the next append starts on a fresh line. */
export function toJsonLines(lines: readonly unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

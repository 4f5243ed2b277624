import fs from "node:fs/promises";
import path from "node:path";
import { isMessageEntry, parseTranscript, withdrawnEntryIds } from "../sessions/store/index.js";
import type { Embedder } from "./embeddings.js";
import { indexDocument, SESSION_PATH_PREFIX, sha256, type SyncReport } from "./indexer.js";
import type { MemoryStore } from "./memory-store.js";

/** A transcript is indexed again once it grew by this many bytes… */
export const SESSION_DELTA_BYTES = 100_000;
/** …or by this many messages since it was last indexed. */
export const SESSION_DELTA_MESSAGES = 50;

export interface SessionSyncInput {
  store: MemoryStore;
  /** `<state>/agents/<agentId>/sessions`. */
  sessionsDir: string;
  chunkTokens: number;
  chunkOverlap: number;
  embedder?: Embedder;
  /** Index every change now, however small (`openclaw memory index`). */
  all?: boolean;
}

interface TranscriptFile {
  relPath: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

/**
 * The `sessions` memory source: each live transcript of the agent is indexed as one document of
 * its user and assistant messages ("User: …" / "Assistant: …"), under `sessions/<file>`. A
 * transcript is re-indexed when it grew by 100 KB or 50 messages since it was last indexed (or on
 * any change with `all`); a deleted or reset session's transcript leaves the index.
 */
export async function syncSessionTranscripts(input: SessionSyncInput): Promise<Pick<SyncReport, "indexed" | "removed" | "unchanged" | "embeddingError">> {
  const { store } = input;
  const report: Pick<SyncReport, "indexed" | "removed" | "unchanged" | "embeddingError"> = { indexed: 0, removed: 0, unchanged: 0 };
  const transcripts = await listTranscripts(input.sessionsDir);
  const known = store.files("sessions");
  const present = new Set(transcripts.map((t) => t.relPath));
  for (const relPath of [...known.keys(), ...store.unlistedChunkPaths().filter((p) => p.startsWith(SESSION_PATH_PREFIX))]) {
    if (present.has(relPath)) continue;
    store.removeFile(relPath);
    report.removed++;
  }
  let embedder = input.embedder;
  for (const file of transcripts) {
    const prior = known.get(file.relPath);
    if (prior && prior.size === file.size && prior.mtime === file.mtimeMs) {
      report.unchanged++;
      continue;
    }
    if (prior && !input.all && file.size >= prior.size && !(await grewEnough(file, prior.size))) {
      report.unchanged++;
      continue;
    }
    const bytes = await fs.readFile(file.absPath).catch(() => undefined);
    if (!bytes) continue;
    const text = conversationText(bytes.toString("utf8"));
    const row = { path: file.relPath, source: "sessions", hash: sha256(bytes), mtime: file.mtimeMs, size: file.size };
    if (!text) {
      store.beginFile(file.relPath);
      store.commitFile(row);
      continue;
    }
    const failed = await indexDocument(store, row, text, { chunkTokens: input.chunkTokens, chunkOverlap: input.chunkOverlap, ...(embedder ? { embedder } : {}) });
    if (failed) {
      report.embeddingError = failed;
      embedder = undefined;
    }
    report.indexed++;
  }
  return report;
}

/** Whether some transcript changed enough to be indexed again (a stat of each, plus the new tail of a grown one). */
export async function sessionTranscriptsChanged(store: MemoryStore, sessionsDir: string): Promise<boolean> {
  const transcripts = await listTranscripts(sessionsDir);
  const known = store.files("sessions");
  if (transcripts.length !== known.size) return true;
  for (const file of transcripts) {
    const prior = known.get(file.relPath);
    if (!prior || file.size < prior.size) return true;
    if (file.size !== prior.size && (await grewEnough(file, prior.size))) return true;
  }
  return false;
}

/** The live transcripts (`<sessionId>.jsonl`; archives and the index file are not conversations). */
async function listTranscripts(sessionsDir: string): Promise<TranscriptFile[]> {
  const names = await fs.readdir(sessionsDir).catch(() => [] as string[]);
  const files: TranscriptFile[] = [];
  for (const name of names) {
    if (!/^[\w-]+\.jsonl$/.test(name)) continue;
    const absPath = path.join(sessionsDir, name);
    const stat = await fs.stat(absPath).catch(() => undefined);
    if (stat?.isFile()) files.push({ relPath: `${SESSION_PATH_PREFIX}${name}`, absPath, size: stat.size, mtimeMs: Math.round(stat.mtimeMs) });
  }
  return files.sort((a, b) => a.relPath.localeCompare(b.relPath));
}

/** 100 KB more, or 50 more messages in the part written since `indexedSize`. */
async function grewEnough(file: TranscriptFile, indexedSize: number): Promise<boolean> {
  const delta = file.size - indexedSize;
  if (delta >= SESSION_DELTA_BYTES) return true;
  const handle = await fs.open(file.absPath, "r").catch(() => undefined);
  if (!handle) return false;
  try {
    const buffer = Buffer.alloc(delta);
    await handle.read(buffer, 0, delta, indexedSize);
    const messages = buffer
      .toString("utf8")
      .split("\n")
      .filter((line) => line.includes('"type":"message"')).length;
    return messages >= SESSION_DELTA_MESSAGES;
  } finally {
    await handle.close();
  }
}

/** The user and assistant words of a transcript, one paragraph per message (withdrawn messages left out). */
export function conversationText(transcript: string): string {
  const paragraphs: string[] = [];
  const { entries } = parseTranscript(transcript);
  const withdrawn = withdrawnEntryIds(entries);
  for (const entry of entries) {
    if (!isMessageEntry(entry) || withdrawn.has(entry.id)) continue;
    const message = entry.message as { role?: string; content?: unknown };
    if (message.role !== "user" && message.role !== "assistant") continue;
    const text = textOf(message.content).trim();
    if (text) paragraphs.push(`${message.role === "user" ? "User" : "Assistant"}: ${text}`);
  }
  return paragraphs.join("\n\n");
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => (block && typeof block === "object" && (block as { type?: unknown }).type === "text" ? String((block as { text?: unknown }).text ?? "") : ""))
    .join("");
}

import fs from "node:fs";
import path from "node:path";
import type { Usage } from "../../models/messages.js";
import { parseTranscript } from "../store/transcript-reader.js";
import { agentsRoot, TRANSCRIPT_SUFFIX } from "../store/session-paths.js";

/** One model call's usage, as its assistant message recorded it in a transcript. */
export interface UsageRecord {
  agentId: string;
  sessionId: string;
  sessionKey?: string;
  /** Epoch ms of the answer. */
  ts: number;
  provider?: string;
  model?: string;
  usage: Usage;
}

interface CachedFile {
  size: number;
  mtimeMs: number;
  records: (UsageRecord & { entryId: string })[];
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * Every model call's usage in every transcript under the state dir — live files and their reset,
 * rotated and deleted archives — read from the assistant messages' `usage`. Files are parsed once
 * and re-read only when their size or mtime changes. A rotated file carries its newest entries
 * (same ids) into the next one, so entries are counted once per session id.
 */
export class UsageRecords {
  private readonly files = new Map<string, CachedFile>();

  constructor(private readonly stateDir: string) {}

  /** Records answered in [startMs, endMs), optionally of one agent, oldest file first. */
  read(range: { startMs: number; endMs: number; agentId?: string }): UsageRecord[] {
    const out: UsageRecord[] = [];
    const seen = new Set<string>();
    const live = new Set<string>();
    for (const file of this.transcriptFiles(range.agentId)) {
      live.add(file.path);
      const cached = this.load(file.path, file.agentId);
      for (const record of cached) {
        const key = `${record.sessionId}\0${record.entryId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (record.ts >= range.startMs && record.ts < range.endMs) {
          const { entryId: _entryId, ...rest } = record;
          out.push(rest);
        }
      }
    }
    if (range.agentId === undefined) for (const cachedPath of this.files.keys()) if (!live.has(cachedPath)) this.files.delete(cachedPath);
    return out;
  }

  private transcriptFiles(agentId: string | undefined): { path: string; agentId: string }[] {
    const root = agentsRoot(this.stateDir);
    let agents: string[];
    try {
      agents = agentId ? [agentId] : fs.readdirSync(root);
    } catch {
      return [];
    }
    const files: { path: string; agentId: string }[] = [];
    for (const agent of agents) {
      const dir = path.join(root, agent, "sessions");
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      // A live `<id>.jsonl` and its archives `<id>.jsonl.<kind>.<time>`; an entry carried over by a
      // rotation is the same entry in both, so whichever is read first counts it.
      for (const name of names.sort()) if (name.includes(TRANSCRIPT_SUFFIX)) files.push({ path: path.join(dir, name), agentId: agent });
    }
    return files;
  }

  private load(file: string, agentId: string): CachedFile["records"] {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return [];
    }
    const cached = this.files.get(file);
    if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) return cached.records;
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      return [];
    }
    const parsed = parseTranscript(text);
    const sessionId = parsed.header?.id ?? path.basename(file).split(".")[0]!;
    const sessionKey = typeof parsed.header?.sessionKey === "string" ? parsed.header.sessionKey : undefined;
    const records: CachedFile["records"] = [];
    for (const entry of parsed.entries) {
      const message = entry.message as { role?: string; usage?: Record<string, unknown>; provider?: string; model?: string; timestamp?: number } | undefined;
      if (entry.type !== "message" || message?.role !== "assistant" || !message.usage) continue;
      const usage: Usage = {
        input: num(message.usage.input),
        output: num(message.usage.output),
        cacheRead: num(message.usage.cacheRead),
        cacheWrite: num(message.usage.cacheWrite),
      };
      if (usage.input + usage.output + usage.cacheRead + usage.cacheWrite === 0) continue;
      records.push({
        entryId: entry.id,
        agentId,
        sessionId,
        ...(sessionKey ? { sessionKey } : {}),
        ts: typeof message.timestamp === "number" ? message.timestamp : Date.parse(entry.timestamp),
        ...(message.provider ? { provider: message.provider } : {}),
        ...(message.model ? { model: message.model } : {}),
        usage,
      });
    }
    this.files.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, records });
    return records;
  }
}

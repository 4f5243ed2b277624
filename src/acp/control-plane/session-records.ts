import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../../infra/atomic-file.js";
import { ensurePrivateDir } from "../../infra/paths.js";
import { readTextIfExists } from "../../infra/read-optional.js";
import type { AcpRuntimeSessionMode } from "../runtime/types.js";

/**
 * `starting`: recorded, its process not (yet) up. `ready`: a live process, no turn. `running`: a
 * turn is on. `idle`: no process now; the next turn resumes it with session/load. `stale`: it
 * cannot continue (the agent died, or a restart ended a session the agent cannot load).
 * `closed`: ended on purpose.
 */
export type AcpSessionState = "starting" | "ready" | "running" | "idle" | "stale" | "closed";

export interface AcpSessionRecord {
  sessionKey: string;
  agent: string;
  cwd: string;
  mode: AcpRuntimeSessionMode;
  state: AcpSessionState;
  backendSessionId?: string;
  /** The agent serves session/load (known once it was started). */
  loadSession?: boolean;
  /** The live process (its group id too); used to end an orphan after a gateway crash. */
  pid?: number;
  label?: string;
  /** The session that started it (a sub-agent requester, or a chat). */
  requesterSessionKey?: string;
  /** The `type: "acp"` binding (its id) whose chat this session serves. */
  binding?: string;
  createdAt: number;
  lastActiveAt: number;
  turns: number;
  lastError?: string;
}

const FILE_VERSION = 1;
const MAX_ENDED = 200;

/**
 * Every ACP session this gateway knows, at `<state>/acp/sessions.json`, written atomically on
 * each change: a record is on disk before its process starts, so a crash always leaves enough
 * to end the orphan and tell what became of the session.
 */
export class AcpSessionRecords {
  readonly file: string;
  private readonly records = new Map<string, AcpSessionRecord>();

  constructor(
    stateDir: string,
    private readonly onWarning: (message: string) => void,
  ) {
    this.file = path.join(path.resolve(stateDir), "acp", "sessions.json");
  }

  load(): void {
    ensurePrivateDir(path.dirname(this.file));
    const text = readTextIfExists(this.file);
    if (text === undefined) return;
    try {
      const parsed = JSON.parse(text) as { version?: unknown; sessions?: unknown };
      if (parsed.version !== FILE_VERSION || !Array.isArray(parsed.sessions)) throw new Error(`unexpected format (version ${String(parsed.version)})`);
      for (const record of parsed.sessions as AcpSessionRecord[]) {
        if (record && typeof record.sessionKey === "string" && typeof record.agent === "string") this.records.set(record.sessionKey, record);
      }
    } catch (err) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      fs.renameSync(this.file, aside);
      this.onWarning(`ACP session records unreadable (${(err as Error).message}); moved to ${aside}, starting empty`);
    }
  }

  get(sessionKey: string): AcpSessionRecord | undefined {
    return this.records.get(sessionKey);
  }

  all(): AcpSessionRecord[] {
    return [...this.records.values()];
  }

  /** Adds or changes a record and writes the file before returning. */
  put(record: AcpSessionRecord): void {
    this.records.set(record.sessionKey, record);
    this.flush();
  }

  update(sessionKey: string, patch: Partial<AcpSessionRecord>): AcpSessionRecord | undefined {
    const record = this.records.get(sessionKey);
    if (!record) return undefined;
    Object.assign(record, patch);
    for (const [key, value] of Object.entries(patch)) if (value === undefined) delete (record as unknown as Record<string, unknown>)[key];
    this.flush();
    return record;
  }

  private flush(): void {
    const ended = this.all()
      .filter((r) => r.state === "closed" || r.state === "stale")
      .sort((a, b) => a.lastActiveAt - b.lastActiveAt);
    for (const record of ended.slice(0, Math.max(0, ended.length - MAX_ENDED))) this.records.delete(record.sessionKey);
    ensurePrivateDir(path.dirname(this.file));
    writeFileAtomicSync(this.file, JSON.stringify({ version: FILE_VERSION, sessions: this.all() }, null, 1));
  }
}

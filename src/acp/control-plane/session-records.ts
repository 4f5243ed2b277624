import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicAsync, writeFileAtomicSync } from "../../infra/atomic-file.js";
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
 * to end the orphan and tell what became of the session. `put` and `update` write before they
 * return; `note` writes soon after, off the event loop, for facts that must not hold up the
 * agent (what a turn's start learns, right before its prompt goes out).
 */
export class AcpSessionRecords {
  readonly file: string;
  private readonly records = new Map<string, AcpSessionRecord>();
  /** Counts changes; `written` is the change the file on disk holds. A late write never replaces newer content. */
  private changes = 0;
  private written = 0;
  private background?: Promise<void>;

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
    const record = this.apply(sessionKey, patch);
    if (record) this.flush();
    return record;
  }

  /**
   * Changes a record now and writes the file on the next turn of the event loop, on the thread
   * pool. Returns the change's number for `writtenThrough` (0: no such record).
   */
  note(sessionKey: string, patch: Partial<AcpSessionRecord>): number {
    if (!this.apply(sessionKey, patch)) return 0;
    this.background ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.writeInBackground());
    return this.changes;
  }

  /** Resolves once change `change` is on disk, or its write failed (and was logged). */
  async writtenThrough(change: number): Promise<void> {
    while (this.written < change && this.background) await this.background;
  }

  /** Resolves once every noted change is on disk. */
  async settled(): Promise<void> {
    while (this.background) await this.background;
  }

  private apply(sessionKey: string, patch: Partial<AcpSessionRecord>): AcpSessionRecord | undefined {
    const record = this.records.get(sessionKey);
    if (!record) return undefined;
    Object.assign(record, patch);
    for (const [key, value] of Object.entries(patch)) if (value === undefined) delete (record as unknown as Record<string, unknown>)[key];
    this.changes += 1;
    return record;
  }

  private async writeInBackground(): Promise<void> {
    try {
      while (this.written < this.changes) {
        const change = this.changes;
        const data = this.serialize();
        // A synchronous write since this one started holds newer content: it stays.
        if (await writeFileAtomicAsync(this.file, data, 0o600, () => this.written < change)) this.written = change;
      }
    } catch (err) {
      this.onWarning(`ACP session records not written to ${this.file} (${(err as Error).message}); the next change tries again`);
    } finally {
      this.background = undefined;
    }
  }

  private flush(): void {
    this.changes += 1;
    const change = this.changes;
    writeFileAtomicSync(this.file, this.serialize());
    this.written = change;
  }

  private serialize(): string {
    const ended = this.all()
      .filter((r) => r.state === "closed" || r.state === "stale")
      .sort((a, b) => a.lastActiveAt - b.lastActiveAt);
    for (const record of ended.slice(0, Math.max(0, ended.length - MAX_ENDED))) this.records.delete(record.sessionKey);
    ensurePrivateDir(path.dirname(this.file));
    return JSON.stringify({ version: FILE_VERSION, sessions: this.all() }, null, 1);
  }
}

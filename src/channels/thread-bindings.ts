import fs from "node:fs";
import path from "node:path";
import { writeFileAtomicSync } from "../infra/atomic-file.js";
import { ensurePrivateDir } from "../infra/paths.js";
import { readTextIfExists } from "../infra/read-optional.js";

/** One chat, or one thread in it, on one bot account: what a binding is keyed by. */
export interface ThreadRef {
  channel: string;
  accountId: string;
  chatId: string;
  /** Absent when a whole chat without threads is bound (`/focus` typed outside any thread). */
  threadId?: string;
}

export interface ThreadBinding extends ThreadRef {
  /** The session that receives every message written in this chat/thread (a sub-agent's). */
  sessionKey: string;
  label?: string;
  createdAt: number;
  /** When a message last went through it (kept to the hour on disk); absent: never since `createdAt`. */
  lastActivityAt?: number;
}

/** A binding's use is written to disk at most this often: idle limits are counted in hours. */
const ACTIVITY_SAVE_MS = 10 * 60_000;

const FILE_VERSION = 1;

/**
 * Thread bindings (`/focus`, see docs/subagents.md): a chat thread whose messages go to a
 * sub-agent's session instead of the chat's own. Persisted at
 * `<state>/channels/thread-bindings.json`, one atomic rewrite per change (they are rare: a spawn, a
 * `/focus`, a child's end), so a restart keeps every thread talking to its child. A damaged file is
 * set aside and the store starts empty: losing bindings sends thread messages to the chat's normal
 * session, never to a wrong one.
 */
export class ThreadBindingStore {
  readonly file: string;
  private readonly bindings = new Map<string, ThreadBinding>();

  constructor(
    stateDir: string,
    private readonly onWarning: (message: string) => void = () => {},
  ) {
    this.file = path.join(path.resolve(stateDir), "channels", "thread-bindings.json");
    this.load();
  }

  get(ref: ThreadRef): ThreadBinding | undefined {
    return this.bindings.get(refKey(ref));
  }

  /** Binds `ref` to `sessionKey`, replacing whatever it was bound to. */
  bind(ref: ThreadRef, sessionKey: string, options: { label?: string; now?: number } = {}): ThreadBinding {
    const binding: ThreadBinding = {
      channel: ref.channel,
      accountId: ref.accountId,
      chatId: ref.chatId,
      ...(ref.threadId ? { threadId: ref.threadId } : {}),
      sessionKey,
      ...(options.label ? { label: options.label } : {}),
      createdAt: options.now ?? Date.now(),
    };
    this.bindings.set(refKey(ref), binding);
    this.save();
    return binding;
  }

  /** A message went through the binding of `ref` at `now`. */
  touch(ref: ThreadRef, now = Date.now()): void {
    const binding = this.bindings.get(refKey(ref));
    if (!binding) return;
    const saved = binding.lastActivityAt ?? binding.createdAt;
    binding.lastActivityAt = now;
    if (now - saved >= ACTIVITY_SAVE_MS) this.save();
  }

  /** Removes the binding of `ref`; returns it, or undefined when there was none. */
  unbind(ref: ThreadRef): ThreadBinding | undefined {
    const key = refKey(ref);
    const binding = this.bindings.get(key);
    if (!binding) return undefined;
    this.bindings.delete(key);
    this.save();
    return binding;
  }

  /** Removes every binding to `sessionKey` (its session ended); returns how many there were. */
  unbindSession(sessionKey: string): number {
    let removed = 0;
    for (const [key, binding] of this.bindings) {
      if (binding.sessionKey !== sessionKey) continue;
      this.bindings.delete(key);
      removed += 1;
    }
    if (removed > 0) this.save();
    return removed;
  }

  list(): ThreadBinding[] {
    return [...this.bindings.values()];
  }

  private load(): void {
    const text = readTextIfExists(this.file);
    if (text === undefined) return;
    try {
      const parsed = JSON.parse(text) as { version?: unknown; bindings?: unknown };
      if (parsed.version !== FILE_VERSION || !Array.isArray(parsed.bindings)) throw new Error(`unexpected format (version ${String(parsed.version)})`);
      for (const binding of parsed.bindings as ThreadBinding[]) {
        if (isBinding(binding)) this.bindings.set(refKey(binding), binding);
      }
    } catch (err) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      fs.renameSync(this.file, aside);
      this.bindings.clear();
      this.onWarning(`thread bindings unreadable (${(err as Error).message}); moved to ${aside}, starting empty`);
    }
  }

  private save(): void {
    ensurePrivateDir(path.dirname(this.file));
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: FILE_VERSION, bindings: this.list() }, null, 2)}\n`);
  }
}

/** Ids as the platform gave them: Slack and Discord ids are case-sensitive, so nothing is lower-cased. */
function refKey(ref: ThreadRef): string {
  return JSON.stringify([ref.channel, ref.accountId, ref.chatId, ref.threadId ?? ""]);
}

function isBinding(value: unknown): value is ThreadBinding {
  const b = value as Partial<ThreadBinding> | null;
  return (
    typeof b === "object" &&
    b !== null &&
    typeof b.channel === "string" &&
    typeof b.accountId === "string" &&
    typeof b.chatId === "string" &&
    (b.threadId === undefined || typeof b.threadId === "string") &&
    typeof b.sessionKey === "string" &&
    typeof b.createdAt === "number" &&
    (b.lastActivityAt === undefined || typeof b.lastActivityAt === "number")
  );
}

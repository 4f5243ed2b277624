import type { OpenClawConfig } from "../config/index.js";
import type { ThreadBinding } from "./thread-bindings.js";

/** `session.threadBindings`, with OpenClaw's defaults. */
export interface ThreadBindingSettings {
  /** Off: `/focus` and thread-bound spawns are refused, and existing bindings are not followed. */
  enabled: boolean;
  /** A binding no message used for this long is dropped (0: never). */
  idleMs: number;
  /** A binding this old is dropped, used or not (0: never). */
  maxAgeMs: number;
  /** `sessions_spawn` with `thread: true` may open a thread for its child. */
  spawnSessions: boolean;
}

const HOUR_MS = 3_600_000;

export function threadBindingSettings(config: OpenClawConfig): ThreadBindingSettings {
  const raw = config.session?.threadBindings;
  return {
    enabled: raw?.enabled !== false,
    idleMs: (raw?.idleHours ?? 24) * HOUR_MS,
    maxAgeMs: (raw?.maxAgeHours ?? 0) * HOUR_MS,
    spawnSessions: raw?.spawnSessions !== false,
  };
}

/** Why `binding` has run out at `now`, or undefined while it holds. */
export function bindingExpiry(binding: ThreadBinding, settings: ThreadBindingSettings, now: number): string | undefined {
  if (settings.maxAgeMs > 0 && now - binding.createdAt >= settings.maxAgeMs) return `older than session.threadBindings.maxAgeHours (${settings.maxAgeMs / HOUR_MS} h)`;
  const lastUsed = binding.lastActivityAt ?? binding.createdAt;
  if (settings.idleMs > 0 && now - lastUsed >= settings.idleMs) return `unused for session.threadBindings.idleHours (${settings.idleMs / HOUR_MS} h)`;
  return undefined;
}

export const THREAD_BINDINGS_OFF = "thread bindings are off (session.threadBindings.enabled: false)";

/**
 * `/elevated` levels. `on` (and its alias `ask`) runs a sandboxed session's `exec` commands on the
 * host, under `tools.exec`'s security, allowlist and approvals as everywhere; `off` keeps them in
 * the sandbox. `full` is OpenClaw's "skip approvals where the exec policy already asks none": this
 * gateway's only exec policy is `tools.exec`, so where it asks none `on` asks none either, and
 * `full` runs exactly as `on`.
 */
export const ELEVATED_LEVELS = ["off", "on", "ask", "full"] as const;
export type ElevatedLevel = (typeof ELEVATED_LEVELS)[number];

const SPELLINGS: Record<string, ElevatedLevel> = {
  off: "off",
  false: "off",
  no: "off",
  "0": "off",
  on: "on",
  true: "on",
  yes: "on",
  "1": "on",
  ask: "ask",
  prompt: "ask",
  approval: "ask",
  approve: "ask",
  full: "full",
  auto: "full",
  "auto-approve": "full",
  autoapprove: "full",
};

/** The level a word names (OpenClaw's spellings: `yes`, `true`, `auto`, …), or undefined. */
export function parseElevatedLevel(raw: string): ElevatedLevel | undefined {
  return SPELLINGS[raw.trim().toLowerCase()];
}

/**
 * What a turn's sender may do: present only when the sender passed `tools.elevated`'s gates for the
 * turn's agent; `level` is the message's own (an inline `/elevated on <message>`).
 */
export interface ElevatedGrant {
  level?: ElevatedLevel;
}

/**
 * The level a turn runs at: `off` unless the sender is granted; then the message's own level, the
 * session's (`/elevated <level>`, `sessions.patch`), `agents.defaults.elevatedDefault`, else `on`.
 */
export function turnElevatedLevel(grant: ElevatedGrant | undefined, sessionLevel: string | undefined, configured: ElevatedLevel | undefined): ElevatedLevel {
  if (!grant) return "off";
  return grant.level ?? (sessionLevel ? parseElevatedLevel(sessionLevel) : undefined) ?? configured ?? "on";
}

/** Whether a sender may use `/elevated` with an agent, and else each gate that keeps it off, naming its key. */
export interface ElevatedAccess {
  allowed: boolean;
  failing: string[];
}

/** The access of a request that names no chat sender (`agent`, HTTP): never elevated. */
export const NO_CHAT_SENDER: ElevatedAccess = { allowed: false, failing: ["a chat sender (an `agent` or HTTP request names none; use a chat channel or chat.send)"] };

/** What `/elevated` says to a sender the gates keep out: the failing gates and the keys to set. */
export function elevatedUnavailableText(access: ElevatedAccess, sandboxed: boolean): string {
  return [
    `/elevated is not available to you here (${sandboxed ? "this session is sandboxed" : "this session is not sandboxed: exec already runs on the host"}).`,
    `Failing gates: ${access.failing.join(", ")}.`,
    "The owner sets tools.elevated.enabled and tools.elevated.allowFrom.<channel> (and an agent's tools.elevated, which can only narrow them).",
  ].join("\n");
}

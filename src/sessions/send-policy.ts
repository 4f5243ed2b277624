import type { OpenClawConfig } from "../config/index.js";
import type { SessionEntry } from "./store/index.js";

export type SendPolicy = "allow" | "deny";

/** The chat a send goes to, as far as the caller knows it; what it leaves out is read from the session. */
export interface SendPolicySubject {
  sessionKey: string;
  entry?: Pick<SessionEntry, "sendPolicy" | "chatType" | "channel" | "lastChannel" | "deliveryContext"> | undefined;
  /** The channel the reply would go to (`telegram`, `discord`, `slack`, `webchat`). */
  channel?: string;
  chatType?: string;
}

/**
 * Whether the gateway may send into a session's chat: the session's own choice (`/send`,
 * `sessions.patch`) first, else the first `session.sendPolicy.rules` entry that matches and denies,
 * else `allow` when an `allow` rule matched, else `session.sendPolicy.default` (allow). A rule
 * matches when every field it gives matches: `channel`, `chatType`, `keyPrefix` (the key with or
 * without its `agent:<id>:` part), `rawKeyPrefix` (the whole key); all compared in lower case.
 */
export function resolveSendPolicy(config: OpenClawConfig, subject: SendPolicySubject): SendPolicy {
  const override = subject.entry?.sendPolicy;
  if (override === "allow" || override === "deny") return override;
  const policy = config.session?.sendPolicy;
  if (!policy) return "allow";
  const rawKey = subject.sessionKey.toLowerCase();
  const scopedKey = withoutAgentPrefix(rawKey);
  const fromKey = chatOfKey(scopedKey);
  const entry = subject.entry;
  const channel = lower(subject.channel ?? entry?.deliveryContext?.channel ?? entry?.lastChannel ?? entry?.channel ?? fromKey.channel);
  const chatType = chatTypeOf(subject.chatType ?? entry?.chatType) ?? fromKey.chatType;
  let allowed = false;
  for (const rule of policy.rules ?? []) {
    const match = rule.match ?? {};
    if (match.channel && lower(match.channel) !== channel) continue;
    if (match.chatType && match.chatType !== chatType) continue;
    if (match.rawKeyPrefix && !rawKey.startsWith(match.rawKeyPrefix.toLowerCase())) continue;
    if (match.keyPrefix) {
      const prefix = match.keyPrefix.toLowerCase();
      if (!rawKey.startsWith(prefix) && !scopedKey.startsWith(prefix)) continue;
    }
    if (rule.action === "deny") return "deny";
    allowed = true;
  }
  return allowed ? "allow" : (policy.default ?? "allow");
}

/** The refusal a client sees when it asks to send into a chat whose policy denies it. */
export const SEND_BLOCKED = "send blocked by session policy";

function withoutAgentPrefix(key: string): string {
  const parts = key.split(":");
  return parts[0] === "agent" && parts.length >= 3 ? parts.slice(2).join(":") : key;
}

/** `<channel>:[<account>:]<chat type>:<peer>…` or `direct:<peer>` (a per-peer DM): what a channel session's key says of its chat. */
function chatOfKey(scopedKey: string): { channel?: string; chatType?: string } {
  const parts = scopedKey.split(":");
  const at = parts.slice(0, 3).findIndex((p) => p === "direct" || p === "group" || p === "channel");
  if (at < 0) return {};
  return { chatType: parts[at], ...(at > 0 ? { channel: parts[0] } : {}) };
}

/** OpenClaw's `dm` is a direct chat. */
function chatTypeOf(raw: string | undefined): string | undefined {
  const value = raw?.trim().toLowerCase();
  if (value === "dm") return "direct";
  return value === "direct" || value === "group" || value === "channel" ? value : undefined;
}

function lower(value: string | undefined): string | undefined {
  const trimmed = value?.trim().toLowerCase();
  return trimmed || undefined;
}

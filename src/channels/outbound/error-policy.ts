import type { DeliveryTarget } from "./delivery-ledger.js";

/** How a failed turn's notice reaches a chat (Telegram's `errorPolicy`). */
export type ErrorPolicy = "always" | "once" | "silent";

/** `once`: the same notice in the same chat is sent again only after this long. */
export const ERROR_NOTICE_COOLDOWN_MS = 60 * 60_000;

type ChatEntry = { errorPolicy?: ErrorPolicy; topics?: Record<string, { errorPolicy?: ErrorPolicy }> };

/**
 * A Telegram chat's `errorPolicy`: its topic's, else its group's (or the `"*"` group's), else the
 * account's (channel keys merged under it), else `always`. Other channels always send the notice.
 */
export function errorPolicyFor(channel: string, accountConfig: Readonly<Record<string, unknown>> | undefined, target: Pick<DeliveryTarget, "chatId" | "threadId">): ErrorPolicy {
  if (channel !== "telegram" || !accountConfig) return "always";
  const groups = accountConfig.groups as Record<string, ChatEntry> | undefined;
  const group = groups?.[target.chatId] ?? groups?.["*"];
  const topic = target.threadId ? group?.topics?.[target.threadId] : undefined;
  return topic?.errorPolicy ?? group?.errorPolicy ?? (accountConfig.errorPolicy as ErrorPolicy | undefined) ?? "always";
}

/** The notices of `once` chats already sent, by chat and text, with when. */
export class SentErrorNotices {
  private readonly sent = new Map<string, number>();

  /** Whether `text` may go to `chat` now under `once`; a yes is remembered. */
  admit(chat: string, text: string, now = Date.now()): boolean {
    for (const [key, at] of this.sent) if (now - at >= ERROR_NOTICE_COOLDOWN_MS) this.sent.delete(key);
    const key = `${chat}\n${text}`;
    if (this.sent.has(key)) return false;
    this.sent.set(key, now);
    return true;
  }
}

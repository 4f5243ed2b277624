import { LRUCache } from "lru-cache";

/** How many of its own messages an account remembers (per account, across its chats). */
const REMEMBERED = 5_000;

/**
 * The messages this account posted, by chat and message id, with the forum topic they went to:
 * Telegram's reaction updates say neither who wrote the message nor its topic. Kept in memory
 * for this process, so a reaction to a message sent before a restart is not known as the bot's.
 */
export class SentMessages {
  private readonly sent = new LRUCache<string, { threadId?: string }>({ max: REMEMBERED });

  remember(chatId: string, messageId: string, threadId: string | undefined): void {
    this.sent.set(`${chatId}:${messageId}`, threadId ? { threadId } : {});
  }

  /** The message as this account sent it, or undefined when it did not (or has forgotten). */
  find(chatId: string, messageId: string): { threadId?: string } | undefined {
    return this.sent.get(`${chatId}:${messageId}`);
  }
}

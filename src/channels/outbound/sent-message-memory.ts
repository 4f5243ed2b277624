import { LRUCache } from "lru-cache";

/** How many of its own messages an account remembers (per account, across its chats). */
const REMEMBERED = 5_000;

/**
 * The messages one account posted, by chat and message id, with the thread (Slack) or forum
 * topic (Telegram) they went to, and the threads it posted in: a platform's reaction event may
 * say neither who wrote the reacted message nor its thread, and a message in a thread the bot
 * posted in is an implied mention. Kept in memory for this process: after a restart an earlier
 * message is not known as the bot's.
 */
export class SentMessageMemory {
  private readonly sent = new LRUCache<string, { threadId?: string }>({ max: REMEMBERED });
  private readonly threads = new LRUCache<string, true>({ max: REMEMBERED });

  remember(chatId: string, messageId: string, threadId: string | undefined): void {
    this.sent.set(`${chatId}:${messageId}`, threadId ? { threadId } : {});
    if (threadId) this.threads.set(`${chatId}:${threadId}`, true);
  }

  /** The message as this account posted it, or undefined when it did not (or has forgotten). */
  find(chatId: string, messageId: string): { threadId?: string } | undefined {
    return this.sent.get(`${chatId}:${messageId}`);
  }

  /** Whether this account has posted in the thread (as far as this process remembers). */
  postedIn(chatId: string, threadId: string): boolean {
    return this.threads.has(`${chatId}:${threadId}`);
  }
}

import { LRUCache } from "lru-cache";

/** How many of its own messages an account remembers (per account, across its chats). */
const REMEMBERED = 5_000;

/**
 * The messages this account posted, by channel and `ts`, with the thread they went to: Slack's
 * `reaction_added` names the reacted message but not its thread, and may omit its author
 * (`item_user`); a message in a thread the bot posted in is an implied mention (`threadParticipation`). Kept in memory for this process: after a restart an earlier message's thread is
 * not known, and a reaction to it goes to the channel's own session.
 */
export class SentMessages {
  private readonly sent = new LRUCache<string, { threadId?: string }>({ max: REMEMBERED });
  /** The threads this account posted in, by channel and thread `ts`. */
  private readonly threads = new LRUCache<string, true>({ max: REMEMBERED });

  remember(channel: string, ts: string, threadTs: string | undefined): void {
    this.sent.set(`${channel}:${ts}`, threadTs ? { threadId: threadTs } : {});
    if (threadTs) this.threads.set(`${channel}:${threadTs}`, true);
  }

  /** Whether this account has posted in the thread (as far as this process remembers). */
  postedIn(channel: string, threadTs: string): boolean {
    return this.threads.has(`${channel}:${threadTs}`);
  }

  /** The message as this account posted it, or undefined when it did not (or has forgotten). */
  find(channel: string, ts: string): { threadId?: string } | undefined {
    return this.sent.get(`${channel}:${ts}`);
  }
}

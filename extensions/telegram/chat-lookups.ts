import { LRUCache } from "lru-cache";
import type { ChannelChatKind } from "../../src/channels/types.js";

/** How long one `getChat` answer is reused. */
export const CHAT_LOOKUP_TTL_MS = 10 * 60_000;
/** How many chats' answers are kept at most (the least recently used go first). */
export const CHAT_LOOKUP_MAX = 500;

/** What `getChat` told about a chat target: its kind and numeric id. */
export interface LookedUpChat {
  chatType: ChannelChatKind;
  peerId: string;
}

/**
 * `getChat` answers by the chat target they were asked for (`-100123`, `@name`), so `agent --to`
 * asks Telegram once per chat within CHAT_LOOKUP_TTL_MS. A failed lookup is not kept: a chat the
 * bot joins later is found at the next call. `clear` forgets every answer.
 */
export class ChatLookups {
  private readonly answers: LRUCache<string, LookedUpChat>;

  /** `now` is the clock answers expire by (milliseconds, monotonic); injectable for tests. */
  constructor(now: () => number = () => performance.now()) {
    this.answers = new LRUCache({ max: CHAT_LOOKUP_MAX, ttl: CHAT_LOOKUP_TTL_MS, perf: { now }, ttlResolution: 0 });
  }

  async lookUp(chatId: string, ask: (chatId: string) => Promise<LookedUpChat>): Promise<LookedUpChat> {
    const known = this.answers.get(chatId);
    if (known) return known;
    const answer = await ask(chatId);
    this.answers.set(chatId, answer);
    return answer;
  }

  clear(): void {
    this.answers.clear();
  }
}

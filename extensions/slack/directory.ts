import { LRUCache } from "lru-cache";
import type { ChannelChatKind } from "../../src/channels/types.js";
import type { Logger } from "../../src/infra/logger.js";
import { describeSlackError } from "./api-errors.js";
import type { SenderProfile } from "./inbound.js";
import type { SlackWebClient } from "./slack-sdk.js";

const CACHE_SIZE = 2_000;
/** A failed lookup is asked again after this long (a missing scope should not cost a call per message). */
const FAILED_LOOKUP_TTL_MS = 10 * 60_000;

/** A lookup in flight or done; boxed because the cache holds no `undefined`. */
interface CachedLookup<T> {
  value: Promise<T>;
}

interface ConversationInfo {
  is_im?: boolean;
  is_mpim?: boolean;
}

interface UserInfo {
  name?: string;
  is_bot?: boolean;
  real_name?: string;
  profile?: { display_name?: string; real_name?: string };
}

/**
 * Lookups an inbound message sometimes needs, cached for the account's lifetime: the kind of a
 * conversation (`app_mention` and `reaction_added` events carry no `channel_type`) and a sender's
 * names (and whether it is a bot user). When a lookup fails the message goes on with a fallback,
 * and the failure is remembered for a while.
 */
export class SlackDirectory {
  private readonly chatKinds: LRUCache<string, CachedLookup<ChannelChatKind>>;
  private readonly profiles: LRUCache<string, CachedLookup<SenderProfile | undefined>>;

  /** `now` is the clock failed lookups expire by (milliseconds, monotonic); injectable for tests. */
  constructor(
    private readonly api: SlackWebClient,
    private readonly logger: Logger,
    private readonly secrets: readonly string[],
    now: () => number = () => performance.now(),
  ) {
    this.chatKinds = new LRUCache({ max: CACHE_SIZE, perf: { now }, ttlResolution: 0 });
    this.profiles = new LRUCache({ max: CACHE_SIZE, perf: { now }, ttlResolution: 0 });
  }

  chatKind(channelId: string): Promise<ChannelChatKind> {
    return this.cached(this.chatKinds, channelId, () => this.lookUpChatKind(channelId));
  }

  profile(userId: string): Promise<SenderProfile | undefined> {
    return this.cached(this.profiles, userId, () => this.lookUpProfile(userId));
  }

  private cached<T>(cache: LRUCache<string, CachedLookup<T>>, key: string, lookUp: () => Promise<{ value: T; ok: boolean }>): Promise<T> {
    const hit = cache.get(key);
    if (hit) return hit.value;
    const value = lookUp().then((result) => {
      // A failed answer is kept for a while only; a good one until the cache lets it go.
      if (!result.ok && cache.peek(key) === entry) cache.set(key, entry, { ttl: FAILED_LOOKUP_TTL_MS });
      return result.value;
    });
    const entry: CachedLookup<T> = { value };
    cache.set(key, entry);
    return value;
  }

  private async lookUpChatKind(channelId: string): Promise<{ value: ChannelChatKind; ok: boolean }> {
    try {
      const result = await this.api.conversations.info({ channel: channelId });
      const channel = result.channel as ConversationInfo | undefined;
      return { value: channel?.is_im ? "direct" : channel?.is_mpim ? "group" : "channel", ok: true };
    } catch (error) {
      this.logger.warn({ channelId }, `${describeSlackError("conversations.info", error, this.secrets)}; guessing the chat kind from the id`);
      // DM ids start with D; anything else a bot can be mentioned in is treated as a channel.
      return { value: channelId.startsWith("D") ? "direct" : "channel", ok: false };
    }
  }

  private async lookUpProfile(userId: string): Promise<{ value: SenderProfile | undefined; ok: boolean }> {
    try {
      const result = await this.api.users.info({ user: userId });
      const user = result.user as UserInfo | undefined;
      const name = nonEmpty(user?.profile?.display_name) ?? nonEmpty(user?.real_name) ?? nonEmpty(user?.profile?.real_name);
      const isBot = user?.is_bot === true;
      return { value: name ? { name, username: nonEmpty(user?.name), ...(isBot ? { isBot } : {}) } : isBot ? { isBot } : undefined, ok: true };
    } catch (error) {
      this.logger.warn({ userId }, `${describeSlackError("users.info", error, this.secrets)}; the sender stays nameless`);
      return { value: undefined, ok: false };
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

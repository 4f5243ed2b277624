import { LRUCache } from "lru-cache";
import type { InboundMessage } from "../types.js";
import { DEFAULT_DEDUPE_MAX_ENTRIES, DEFAULT_DEDUPE_TTL_MS } from "./dedupe-cache.js";

/**
 * Which run of an account handed each recent platform message over, by the message's place
 * (`channel|account|chat|thread|message id`), in memory for the dedupe TTL. A platform hands a
 * restarted account what the run before it had not confirmed yet (a Telegram batch whose offset
 * the stopped poller never sent); a reload may have routed that chat to another session, where the
 * dedupe key (which names the session) would not recognise it. `claim` lets through a message
 * no other run of the account handed over; the same run's redeliveries go on to the dedupe as
 * before.
 */
export class HandedOver<Run extends object> {
  private readonly runs = new LRUCache<string, Run>({ max: DEFAULT_DEDUPE_MAX_ENTRIES, ttl: DEFAULT_DEDUPE_TTL_MS });

  /** The message's place, or false when another run of its account handed it over already. */
  claim(channel: string, accountId: string, message: InboundMessage, run: Run): string | false {
    const place = [channel, accountId, message.chatId, message.threadId ?? "", message.messageId].join("|");
    const by = this.runs.get(place);
    if (by !== undefined && by !== run) return false;
    this.runs.set(place, run);
    return place;
  }

  /** The run could not record the message: the next run that gets it may hand it over. */
  release(place: string, run: Run): void {
    if (this.runs.get(place) === run) this.runs.delete(place);
  }
}

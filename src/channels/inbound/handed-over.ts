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
 * before. Runs are remembered by a number, so a stopped run (its platform client) is not kept alive.
 */
export class HandedOver<Run extends object> {
  private readonly runs = new LRUCache<string, number>({ max: DEFAULT_DEDUPE_MAX_ENTRIES, ttl: DEFAULT_DEDUPE_TTL_MS });
  private readonly runIds = new WeakMap<Run, number>();
  private nextRunId = 0;

  private idOf(run: Run): number {
    let id = this.runIds.get(run);
    if (id === undefined) this.runIds.set(run, (id = this.nextRunId++));
    return id;
  }

  /** The message's place, or false when another run of its account handed it over already. */
  claim(channel: string, accountId: string, message: InboundMessage, run: Run): string | false {
    const place = [channel, accountId, message.chatId, message.threadId ?? "", message.messageId].join("|");
    const id = this.idOf(run);
    const by = this.runs.get(place);
    if (by !== undefined && by !== id) return false;
    this.runs.set(place, id);
    return place;
  }

  /** The run could not record the message: the next run that gets it may hand it over. */
  release(place: string, run: Run): void {
    if (this.runs.get(place) === this.idOf(run)) this.runs.delete(place);
  }
}

/**
 * Hands a channel's events to the gateway in the order Discord sent them, where it matters: a
 * reaction is read (its channel or user may need a REST lookup) and handed over before anything
 * after it in the same channel, so its notice is on disk before that chat's next message arrives
 * in the pipeline, and rides on it. Messages do not hold up what follows them: `pass` starts one
 * at once when no reaction of its channel is pending, and never waits for its hand-over to end.
 * Keyed by Discord channel id: a thread is a channel of its own, a DM its DM channel.
 */
export class ChannelOrder {
  /** Per channel, the end of the last reaction handed over there and not settled yet. */
  readonly #pending = new Map<string, Promise<void>>();

  /** Runs `task` after what came before it in the channel; later events there wait until it settles (a failed task is the caller's to log). */
  hold(channelId: string, task: () => Promise<void>): void {
    const before = this.#pending.get(channelId);
    const done = before ? before.then(task, task) : task();
    this.#pending.set(channelId, done);
    const forget = () => {
      if (this.#pending.get(channelId) === done) this.#pending.delete(channelId);
    };
    done.then(forget, forget);
  }

  /** Runs `task` now, or once the channel's pending reactions settled; nothing waits for it. */
  pass(channelId: string, task: () => void): void {
    if (!this.#pending.has(channelId)) return task();
    this.hold(channelId, async () => task());
  }
}

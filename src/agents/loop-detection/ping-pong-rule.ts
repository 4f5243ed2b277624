import type { ResolvedLoopDetectorOptions } from "./loop-detector-options.js";
import { pingPongReminder, pingPongStop } from "./loop-messages.js";
import type { LoopVerdict, Observation } from "./observation.js";

/**
 * Two calls alternating (A, B, A, B…) where each A and each B returns what it returned the
 * time before: a loop the back-to-back rule cannot see. Counted in round trips, so the same
 * thresholds as for a repeated single call apply ("a pair repeated 3 times").
 */
export class PingPongRule {
  private readonly history: Observation[] = [];
  private readonly maxHistory: number;

  constructor(private readonly options: ResolvedLoopDetectorOptions) {
    this.maxHistory = 2 * Math.max(options.repeatHardCap, options.pollHardCap) + 2;
  }

  observe(obs: Observation): LoopVerdict | undefined {
    this.history.push(obs);
    if (this.history.length > this.maxHistory) this.history.shift();
    const length = this.alternatingTail();
    if (length < 4) return undefined;
    const roundTrips = Math.floor(length / 2);
    const previous = this.history[this.history.length - 2];
    if (!previous) return undefined;
    const polling = obs.isPoll && previous.isPoll;
    const threshold = polling ? this.options.pollThreshold : this.options.repeatThreshold;
    const cap = polling ? this.options.pollHardCap : this.options.repeatHardCap;
    if (roundTrips >= cap) return { stop: pingPongStop(previous.tool, obs.tool, roundTrips) };
    if (roundTrips >= threshold) return { reminder: pingPongReminder(previous.tool, obs.tool, roundTrips) };
    return undefined;
  }

  /** How many of the latest calls form an A, B, A, B… run with unchanged results. */
  private alternatingTail(): number {
    const h = this.history;
    const n = h.length;
    const last = h[n - 1];
    const beforeLast = h[n - 2];
    if (!last || !beforeLast || last.signature === beforeLast.signature) return Math.min(n, 1);
    let length = 2;
    // Each earlier call must equal the one two places after it (same call, same result); that
    // also keeps neighbours different, since the last two differ.
    for (let i = n - 3; i >= 0; i -= 1) {
      const current = h[i];
      const twoLater = h[i + 2];
      if (!current || !twoLater || current.signature !== twoLater.signature || current.outcome !== twoLater.outcome) break;
      length += 1;
    }
    return length;
  }
}

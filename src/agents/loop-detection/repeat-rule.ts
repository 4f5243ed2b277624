import type { ResolvedLoopDetectorOptions } from "./loop-detector-options.js";
import { pollReminder, pollStop, repeatReminder, repeatStop } from "./loop-messages.js";
import type { LoopVerdict, Observation } from "./observation.js";

/**
 * The same call, back to back, with the same result. A different result breaks the streak:
 * re-running a command whose output changes (a test run after an edit) is progress.
 */
export class RepeatRule {
  private last: { signature: string; outcome: string } | undefined;
  private count = 0;

  constructor(private readonly options: ResolvedLoopDetectorOptions) {}

  observe(obs: Observation): LoopVerdict | undefined {
    const same = this.last?.signature === obs.signature && this.last.outcome === obs.outcome;
    this.count = same ? this.count + 1 : 1;
    this.last = { signature: obs.signature, outcome: obs.outcome };
    const threshold = obs.isPoll ? this.options.pollThreshold : this.options.repeatThreshold;
    const cap = obs.isPoll ? this.options.pollHardCap : this.options.repeatHardCap;
    if (this.count >= cap) return { stop: (obs.isPoll ? pollStop : repeatStop)(obs.tool, this.count) };
    if (this.count >= threshold) return { reminder: (obs.isPoll ? pollReminder : repeatReminder)(obs.tool, this.count) };
    return undefined;
  }
}

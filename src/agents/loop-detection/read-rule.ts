import { changedFiles, readTarget } from "./file-effects.js";
import type { ResolvedLoopDetectorOptions } from "./loop-detector-options.js";
import { readReminder, readStop } from "./loop-messages.js";
import type { LoopVerdict, Observation } from "./observation.js";

/**
 * The same part of the same file read again and again, not necessarily back to back (read,
 * try something, read again…), while nothing changed it. Counting restarts for a file when a
 * call may have changed it (write, edit, apply_patch to it; any shell command) or when a read
 * returns different content (changed from outside).
 */
export class ReadRule {
  // file → window (offset/limit) → the last content seen and how many reads returned it
  private readonly files = new Map<string, Map<string, { outcome: string; count: number }>>();

  constructor(private readonly options: ResolvedLoopDetectorOptions) {}

  observe(obs: Observation): LoopVerdict | undefined {
    const changed = changedFiles(obs.call, obs.result);
    if (changed === "any") this.files.clear();
    else for (const file of changed) this.files.delete(file);

    const target = readTarget(obs.call);
    if (!target) return undefined;
    let windows = this.files.get(target.path);
    if (!windows) this.files.set(target.path, (windows = new Map()));
    const seen = windows.get(target.window);
    const count = seen && seen.outcome === obs.outcome ? seen.count + 1 : 1;
    windows.set(target.window, { outcome: obs.outcome, count });

    if (count >= this.options.readHardCap) return { stop: readStop(target.path, count) };
    if (count > this.options.readThreshold) return { reminder: readReminder(target.path, count) };
    return undefined;
  }
}

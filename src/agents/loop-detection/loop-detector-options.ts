export interface LoopDetectorOptions {
  /** Consecutive identical calls (same tool, arguments and result) that earn a reminder. Default 3. */
  repeatThreshold?: number;
  /** Reads of one unchanged file (same window) that are fine; the next one earns a reminder. Default 5. */
  readThreshold?: number;
  /** Consecutive identical calls that end the run. Default 2 × repeatThreshold (6). */
  repeatHardCap?: number;
  /** Reads of one unchanged file that end the run. Default 2 × readThreshold (10). */
  readHardCap?: number;
  /** Like repeatThreshold, for `process` poll/log calls, where waiting is legitimate. Default 10. */
  pollThreshold?: number;
  /** Like repeatHardCap, for `process` poll/log calls. Default 20. */
  pollHardCap?: number;
}

export type ResolvedLoopDetectorOptions = Required<LoopDetectorOptions>;

/**
 * Defaults and their reasons:
 * - repeat 3: the third identical call with an identical result is already two wasted turns.
 * - read 5: re-reading a file a few times while working on it is normal; five unchanged
 *   re-reads of the same part of a file is not.
 * - hard caps at twice the threshold: after the reminder the model gets as many calls again as
 *   it took to earn it; still repeating by then means it is ignoring the reminder. The same
 *   1:2 ratio as OpenClaw's warning (10) and critical (20) levels.
 * - polls 10/20 (OpenClaw's levels): polling a long build without new output is waiting, not
 *   looping, and ending that run at the sixth poll would be wrong.
 * A cap is always above its threshold so a run is never stopped without a reminder first.
 */
export function resolveLoopDetectorOptions(options: LoopDetectorOptions = {}): ResolvedLoopDetectorOptions {
  const repeatThreshold = positiveInt(options.repeatThreshold, 3);
  const readThreshold = positiveInt(options.readThreshold, 5);
  const pollThreshold = positiveInt(options.pollThreshold, 10);
  return {
    repeatThreshold,
    readThreshold,
    pollThreshold,
    // Repeats are reminded at the threshold, reads past it: the first stop must come later.
    repeatHardCap: Math.max(positiveInt(options.repeatHardCap, 2 * repeatThreshold), repeatThreshold + 1),
    readHardCap: Math.max(positiveInt(options.readHardCap, 2 * readThreshold), readThreshold + 2),
    pollHardCap: Math.max(positiveInt(options.pollHardCap, 2 * pollThreshold), pollThreshold + 1),
  };
}

function positiveInt(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

import type { LevelWithSilent } from "pino";

/** pino's numeric levels; `silent` passes nothing. */
const LEVEL_VALUES: Record<LevelWithSilent, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

interface LineSink {
  write(line: string): unknown;
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * One log destination behind its own level, which can change while the gateway runs (a config
 * reload): pino's multistream tells a stream marked with `pino.metadata` the level of each line
 * before writing it, and lines below the gate's level go no further.
 */
const PINO_METADATA: unique symbol = Symbol.for("pino.metadata") as never;

export class LogLevelGate {
  readonly [PINO_METADATA] = true;
  /** Set by pino's multistream before each write. */
  lastLevel = 0;
  private minimum: number;

  constructor(
    private readonly sink: LineSink,
    level: LevelWithSilent,
  ) {
    this.minimum = LEVEL_VALUES[level];
  }

  set level(level: LevelWithSilent) {
    this.minimum = LEVEL_VALUES[level];
  }

  write(line: string): boolean {
    if (this.lastLevel >= this.minimum) this.sink.write(line);
    return true;
  }

  on(event: string, listener: (...args: unknown[]) => void): this {
    this.sink.on?.(event, listener);
    return this;
  }
}

/** The more verbose of two levels: the logger must emit whatever either destination wants. */
export function mostVerbose(a: LevelWithSilent, b: LevelWithSilent): LevelWithSilent {
  return LEVEL_VALUES[a] <= LEVEL_VALUES[b] ? a : b;
}

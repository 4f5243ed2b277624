import { isSelfHosted } from "./local-base-url.js";
import type { ClassifiedModelError, ProviderModel } from "./types.js";

/** How long one model call may wait for its first stream event, and then between events. */
export interface StreamDeadlines {
  firstByteMs: number;
  idleMs: number;
}

/** Defaults in seconds (docs/models.md, "Stalled streams"): self-hosted servers load models and get more time. */
export const STREAM_TIMEOUT_DEFAULTS = {
  firstByte: { cloud: 300, selfHosted: 600 },
  idle: { cloud: 120, selfHosted: 300 },
} as const;

/**
 * The deadlines of a model call: `models.providers.<id>.firstByteTimeoutSeconds` and
 * `idleTimeoutSeconds` when set, else the defaults for a cloud or a self-hosted endpoint;
 * `timeoutSeconds` widens a default (never an explicit value).
 */
export function streamDeadlines(model: ProviderModel): StreamDeadlines {
  const where = isSelfHosted(model.baseUrl) ? "selfHosted" : "cloud";
  const widen = (seconds: number) => Math.max(seconds, model.timeoutSeconds ?? 0);
  return {
    firstByteMs: (model.firstByteTimeoutSeconds ?? widen(STREAM_TIMEOUT_DEFAULTS.firstByte[where])) * 1000,
    idleMs: (model.idleTimeoutSeconds ?? widen(STREAM_TIMEOUT_DEFAULTS.idle[where])) * 1000,
  };
}

/**
 * Ends a model call that stalls. Before the first stream event the first-byte deadline runs;
 * every later event that is real progress (not a keep-alive) restarts the idle deadline. When a
 * deadline passes, `signal` aborts (the SDK drops the request) and `expired` says why, naming
 * the model and the setting that would give it more time.
 */
export class StreamWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  expired: ClassifiedModelError | undefined;

  constructor(
    private readonly model: ProviderModel,
    private readonly deadlines: StreamDeadlines,
    private readonly outer: AbortSignal,
  ) {
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener("abort", this.onOuterAbort, { once: true });
    this.arm(deadlines.firstByteMs);
  }

  /** Aborts when the caller aborts or a deadline passes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A stream event arrived that shows the provider is still working. */
  progress(): void {
    if (this.expired) return;
    // Restarting the running idle timer is cheaper than a new timer for every event.
    if (this.started && this.timer) this.timer.refresh();
    else this.arm(this.deadlines.idleMs);
    this.started = true;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.outer.removeEventListener("abort", this.onOuterAbort);
  }

  private readonly onOuterAbort = (event: Event): void => {
    this.dispose();
    this.controller.abort((event.target as AbortSignal).reason);
  };

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.expire(ms), ms);
    this.timer.unref?.();
  }

  private expire(ms: number): void {
    const { ref, provider } = this.model;
    const seconds = Math.round(ms / 100) / 10;
    const [what, key] = this.started
      ? [`stopped sending for ${seconds} s in the middle of its reply`, "idleTimeoutSeconds"]
      : [`sent nothing for ${seconds} s after the request`, "firstByteTimeoutSeconds"];
    this.expired = {
      kind: "timeout",
      retryable: true,
      message: `model ${ref} ${what}; the call was abandoned (raise models.providers.${provider}.${key} if this model needs longer)`,
    };
    this.controller.abort(new Error(this.expired.message));
  }
}

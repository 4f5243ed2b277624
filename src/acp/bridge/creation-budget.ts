/**
 * A fixed-window budget: at most `maxRequests` takes per `windowMs`. `take` says whether one
 * more is allowed now and, when not, how long until the window turns over.
 */
export function createWindowBudget(maxRequests: number, windowMs: number, now: () => number = Date.now) {
  let windowStart = now();
  let used = 0;
  return {
    take(): { allowed: true } | { allowed: false; retryAfterMs: number } {
      const t = now();
      if (t - windowStart >= windowMs) {
        windowStart = t;
        used = 0;
      }
      if (used >= maxRequests) return { allowed: false, retryAfterMs: windowStart + windowMs - t };
      used += 1;
      return { allowed: true };
    },
  };
}

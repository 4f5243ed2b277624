/**
 * Time as the scheduler sees it. The gateway uses the system clock; tests hand the scheduler a
 * clock they advance themselves, so nothing waits for real time.
 */
export interface CronClock {
  now(): number;
  /** Calls `fn` once after `ms` (an unref'd timer: a pending job never keeps the process alive). */
  setTimer(fn: () => void, ms: number): CronTimer;
}

export interface CronTimer {
  cancel(): void;
}

export const systemClock: CronClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const handle = setTimeout(fn, Math.max(0, ms));
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};

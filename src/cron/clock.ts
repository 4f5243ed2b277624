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

/** The longest delay one Node timer holds; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: CronClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    // A longer wait is a chain of timers, each at most MAX_TIMER_MS, ending at the same moment.
    const due = Date.now() + Math.max(0, ms);
    let handle: NodeJS.Timeout;
    const arm = (wait: number) => {
      handle = setTimeout(() => (wait < MAX_TIMER_MS ? fn() : arm(Math.max(0, due - Date.now()))), Math.min(wait, MAX_TIMER_MS));
      handle.unref();
    };
    arm(Math.max(0, ms));
    return { cancel: () => clearTimeout(handle) };
  },
};

import type { CronClock, CronTimer } from "../../src/cron/clock.js";

/** A clock tests move by hand: `advance` fires the timers that fall due, in time order. */
export class ManualClock implements CronClock {
  private timers: { at: number; fn: () => void; cancelled: boolean }[] = [];

  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, ms: number): CronTimer {
    const timer = { at: this.current + Math.max(0, ms), fn, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  }

  /** Moves time forward by `ms`, firing each due timer at its own time. */
  advance(ms: number): void {
    this.setTo(this.current + ms);
  }

  setTo(target: number): void {
    for (;;) {
      this.timers = this.timers.filter((t) => !t.cancelled);
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.at);
      due.cancelled = true;
      due.fn();
    }
    this.current = target;
  }

  /** The clock jumps (NTP, a suspended laptop): time moves without the timers in between firing first. */
  jump(ms: number): void {
    this.current += ms;
    for (const t of this.timers.filter((timer) => !timer.cancelled && timer.at <= this.current)) {
      t.cancelled = true;
      t.fn();
    }
  }
}

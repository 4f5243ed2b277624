/** Where a part of the stop registers work that may still be running, under a name a person can act on. */
export interface StopTracker {
  /** `work` is listed under `name` until it settles, even after the stop stopped waiting for it. */
  track(name: string, work: Promise<unknown>): void;
}

/**
 * The stages of a gateway stop still under way, by name, in the order they began: what the
 * shutdown deadline and a second signal report before the process exits.
 */
export class ShutdownStages implements StopTracker {
  private next = 0;
  private readonly running = new Map<number, string>();

  track(name: string, work: Promise<unknown>): void {
    void this.run(name, () => work);
  }

  /** Runs one stage of the stop, listed under `name` from before `start` is called until its work settles. */
  run<T>(name: string, start: () => Promise<T>): Promise<T> {
    const id = this.next++;
    this.running.set(id, name);
    const done = () => this.running.delete(id);
    let work: Promise<T>;
    try {
      work = start();
    } catch (err) {
      done();
      throw err;
    }
    work.then(done, done);
    return work;
  }

  /** The names of the stages not finished yet, each once. */
  pending(): string[] {
    return [...new Set(this.running.values())];
  }
}

/** The one line that says why the gateway exits before its stop finished and what was still going. */
export function unfinishedStopMessage(why: string, pending: readonly string[]): string {
  return `${why}; still waiting for: ${pending.length > 0 ? pending.join(", ") : "nothing (the stop was finishing)"}`;
}

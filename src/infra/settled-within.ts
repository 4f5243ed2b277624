/**
 * Waits for `promise` to settle (fulfilled or rejected) or for `ms` to pass, whichever comes
 * first: true when it settled in time. The timer never holds the process open.
 */
export function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    const settled = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settled, settled);
  });
}

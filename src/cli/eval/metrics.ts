/**
 * The pass metrics of a task over n trials with c passes, for k = n (docs/evals.md):
 * pass@1 = c / n; pass@k = 1 − C(n−c, k) / C(n, k), the chance at least one of k trials passes;
 * pass^k = C(c, k) / C(n, k), the chance all k trials pass.
 */
export function passMetrics(n: number, c: number, k = n): { passAt1: number; passAtK: number; passHatK: number } {
  if (n === 0) return { passAt1: 0, passAtK: 0, passHatK: 0 };
  return { passAt1: c / n, passAtK: 1 - choose(n - c, k) / choose(n, k), passHatK: choose(c, k) / choose(n, k) };
}

function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return result;
}

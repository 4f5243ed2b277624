import { describe, expect, it } from "vitest";
import { passMetrics } from "../../../src/cli/eval/metrics.js";

describe("passMetrics", () => {
  it("gives pass@1, pass@k (at least one of k passes) and pass^k (all k pass) by the unbiased estimators", () => {
    expect(passMetrics(5, 2, 2)).toEqual({ passAt1: 0.4, passAtK: 1 - 3 / 10, passHatK: 1 / 10 });
    expect(passMetrics(3, 3)).toEqual({ passAt1: 1, passAtK: 1, passHatK: 1 });
    expect(passMetrics(3, 1)).toEqual({ passAt1: 1 / 3, passAtK: 1, passHatK: 0 });
    expect(passMetrics(3, 0)).toEqual({ passAt1: 0, passAtK: 0, passHatK: 0 });
  });
});

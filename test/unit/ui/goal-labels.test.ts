import { describe, expect, it } from "vitest";
import { compactTokens, GOAL_STATUS_LABEL, goalElapsed, goalTokens } from "../../../ui/src/views/goal-labels.js";

describe("the Control UI's goal labels", () => {
  it("name every status in words and show tokens compactly, with the budget when there is one", () => {
    expect(GOAL_STATUS_LABEL.active).toBe("Pursuing goal");
    expect(GOAL_STATUS_LABEL.budget_limited).toBe("Goal unmet (budget reached)");
    expect([compactTokens(950), compactTokens(12_000), compactTokens(1_500_000), compactTokens(250_000)]).toEqual(["950", "12k", "1.5M", "250k"]);
    expect(goalTokens({ tokensUsed: 12_000, tokenBudget: 50_000 })).toBe("12k/50k");
    expect(goalTokens({ tokensUsed: 42_000 })).toBe("42k");
  });

  it("count the elapsed time up to now while active, frozen where the goal stopped", () => {
    const base = { createdAt: 0, updatedAt: 50_000 };
    expect(goalElapsed({ ...base, status: "active" }, 45_000)).toBe("45s");
    expect(goalElapsed({ ...base, status: "active" }, 725_000)).toBe("12m 05s");
    expect(goalElapsed({ ...base, status: "active" }, 3 * 3_600_000 + 7 * 60_000)).toBe("3h 07m");
    expect(goalElapsed({ ...base, status: "paused", pausedAt: 30_000 }, 9_999_999)).toBe("30s");
    expect(goalElapsed({ ...base, status: "usage_limited" }, 9_999_999)).toBe("50s");
  });
});

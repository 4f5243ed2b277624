import { describe, expect, it } from "vitest";
import { itemFromHash, itemHash, viewFromHash } from "../../../ui/src/routes.js";

describe("Control UI routes", () => {
  it("the view is the hash's first segment; anything unknown opens the chat", () => {
    expect(viewFromHash("#/sessions")).toBe("sessions");
    expect(viewFromHash("#/traces")).toBe("traces");
    expect(viewFromHash("#/tasks")).toBe("tasks");
    expect(viewFromHash("#/review")).toBe("review");
    expect(viewFromHash("#/traces/run-1")).toBe("traces");
    expect(viewFromHash("#/logs?x=1")).toBe("logs");
    expect(viewFromHash("")).toBe("chat");
    expect(viewFromHash("#/nowhere/run-1")).toBe("chat");
  });

  it("the item is what follows the view, decoded, and itemHash writes it back", () => {
    expect(itemFromHash("#/traces/run-1")).toBe("run-1");
    expect(itemFromHash("#/traces")).toBeUndefined();
    expect(itemFromHash("#/traces/")).toBeUndefined();
    expect(itemFromHash("#/sessions")).toBeUndefined();
    expect(itemFromHash("#/traces/run-1?x=1")).toBe("run-1");
    expect(itemFromHash("#/traces/%E0%A4%A")).toBeUndefined();
    const odd = "agent:main/run #1?";
    expect(itemHash("traces", odd)).toBe("#/traces/agent%3Amain%2Frun%20%231%3F");
    expect(itemFromHash(itemHash("traces", odd))).toBe(odd);
  });
});

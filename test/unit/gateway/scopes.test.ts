import { describe, expect, it } from "vitest";
import { canReceiveEvent, scopeSatisfied } from "../../../src/gateway/protocol/scopes.js";

describe("operator scopes", () => {
  it("admin satisfies every operator scope", () => {
    for (const s of ["operator.read", "operator.write", "operator.pairing", "operator.future"]) {
      expect(scopeSatisfied(["operator.admin"], s)).toBe(true);
    }
  });
  it("write satisfies read and talk, not admin or pairing", () => {
    expect(scopeSatisfied(["operator.write"], "operator.read")).toBe(true);
    expect(scopeSatisfied(["operator.write"], "operator.talk")).toBe(true);
    expect(scopeSatisfied(["operator.write"], "operator.admin")).toBe(false);
    expect(scopeSatisfied(["operator.write"], "operator.pairing")).toBe(false);
  });
  it("read satisfies nothing else; no scopes satisfy nothing", () => {
    expect(scopeSatisfied(["operator.read"], "operator.write")).toBe(false);
    expect(scopeSatisfied([], "operator.read")).toBe(false);
  });
  it("tick/presence/shutdown reach any authenticated socket; other events need read", () => {
    expect(canReceiveEvent([], "tick")).toBe(true);
    expect(canReceiveEvent([], "shutdown")).toBe(true);
    expect(canReceiveEvent([], "agent")).toBe(false);
    expect(canReceiveEvent(["operator.read"], "agent")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { PendingSystemEvents, WAKE_KEY_TTL_MS } from "../../../src/cron/heartbeat/pending-events.js";
import { tempStateDir } from "./cron-harness.js";

describe("pending system events", () => {
  it("are read back by the next process until a beat settles them, oldest first, per agent", () => {
    const stateDir = tempStateDir();
    const first = new PendingSystemEvents(stateDir);
    first.add("main", "one");
    first.add("ops", "for ops");
    first.add("main", "two", { now: true });
    first.close();
    const second = new PendingSystemEvents(stateDir);
    const events = second.forAgent("main");
    expect(events.map((e) => [e.text, e.now])).toEqual([
      ["one", false],
      ["two", true],
    ]);
    expect(second.agentsOwedNow()).toEqual(["main"]);
    second.settle(events.map((e) => e.id));
    second.close();
    const third = new PendingSystemEvents(stateDir);
    expect(third.forAgent("main")).toEqual([]);
    expect(third.forAgent("ops").map((e) => e.text)).toEqual(["for ops"]);
    expect(third.agentsOwedNow()).toEqual([]);
    third.close();
  });

  it("queue nothing for a key already used within its window, also after a reopen and after the event was carried", () => {
    const stateDir = tempStateDir();
    let now = 1_000_000;
    const first = new PendingSystemEvents(stateDir, () => now);
    expect(first.add("main", "deploy", { key: "hook:wake:d-1" })).toBe(true);
    expect(first.add("main", "deploy", { key: "hook:wake:d-1" })).toBe(false);
    first.settle(first.forAgent("main").map((e) => e.id));
    first.close();
    const second = new PendingSystemEvents(stateDir, () => now);
    expect(second.add("main", "deploy", { key: "hook:wake:d-1" })).toBe(false);
    expect(second.forAgent("main")).toEqual([]);
    now += WAKE_KEY_TTL_MS + 1;
    expect(second.add("main", "deploy", { key: "hook:wake:d-1" })).toBe(true);
    second.close();
  });
});

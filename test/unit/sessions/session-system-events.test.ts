import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_EVENT_AGE_MS, MAX_EVENTS_PER_SESSION, SessionSystemEvents } from "../../../src/sessions/system-events/session-system-events.js";

const dirs: string[] = [];
const open: SessionSystemEvents[] = [];
let clock = 1_700_000_000_000;
function store(dir = fs.mkdtempSync(path.join(os.tmpdir(), "system-events-"))): { dir: string; events: SessionSystemEvents } {
  dirs.push(dir);
  const events = new SessionSystemEvents(dir, () => clock);
  open.push(events);
  return { dir, events };
}

afterEach(() => {
  clock = 1_700_000_000_000;
  for (const events of open.splice(0)) events.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("SessionSystemEvents", () => {
  it("queues per session, skips a repeat of the same notice, and keeps what is waiting across a reopen", async () => {
    const { dir, events } = store();
    expect(await events.add("agent:main:main", "A", { contextKey: "k1", sessionId: "s1" })).toBe(true);
    expect(await events.add("agent:main:main", "A", { contextKey: "k1", sessionId: "s1" })).toBe(false);
    expect(await events.add("agent:main:main", "B", { contextKey: "k2", sessionId: "s1" })).toBe(true);
    expect(await events.add("agent:main:other", "C", { contextKey: "k1" })).toBe(true);
    events.close();
    open.pop();
    const reopened = store(dir).events;
    expect(reopened.waitingFor("agent:main:main").map((e) => e.text)).toEqual(["A", "B"]);
    expect(reopened.waitingFor("agent:main:other").map((e) => e.text)).toEqual(["C"]);
  });

  it("a taken notice is offered to no other message; settled it is gone for good, put back it waits again", async () => {
    const { dir, events } = store();
    await events.add("agent:main:main", "A", { contextKey: "k1", sessionId: "s1" });
    const taken = events.take("agent:main:main", "s1");
    expect(taken.map((e) => e.text)).toEqual(["A"]);
    expect(events.take("agent:main:main", "s1")).toEqual([]);
    events.putBack(taken);
    const again = events.take("agent:main:main", "s1");
    expect(again.map((e) => e.text)).toEqual(["A"]);
    events.settle(again);
    await events.add("agent:main:main", "B", { contextKey: "k2", sessionId: "s1" });
    events.close();
    open.pop();
    expect(
      store(dir)
        .events.waitingFor("agent:main:main")
        .map((e) => e.text),
    ).toEqual(["B"]);
  });

  it("a notice taken but not settled before the process ended comes back", async () => {
    const { dir, events } = store();
    await events.add("agent:main:main", "A", { contextKey: "k1" });
    expect(events.take("agent:main:main", "s1")).toHaveLength(1);
    events.close();
    open.pop();
    expect(
      store(dir)
        .events.waitingFor("agent:main:main")
        .map((e) => e.text),
    ).toEqual(["A"]);
  });

  it("drops notices queued for an earlier session under the same key", async () => {
    const { events } = store();
    await events.add("agent:main:main", "old", { contextKey: "k1", sessionId: "s1" });
    await events.add("agent:main:main", "before any session", { contextKey: "k2" });
    expect(events.take("agent:main:main", "s2").map((e) => e.text)).toEqual(["before any session"]);
    expect(events.waitingFor("agent:main:main")).toEqual([]);
  });

  it(`keeps at most ${MAX_EVENTS_PER_SESSION} per session, the newest`, async () => {
    const { events } = store();
    for (let i = 0; i < MAX_EVENTS_PER_SESSION + 3; i++) await events.add("agent:main:main", `n${i}`, { contextKey: `k${i}` });
    const waiting = events.waitingFor("agent:main:main").map((e) => e.text);
    expect(waiting).toHaveLength(MAX_EVENTS_PER_SESSION);
    expect(waiting[0]).toBe("n3");
    expect(waiting.at(-1)).toBe(`n${MAX_EVENTS_PER_SESSION + 2}`);
  });

  it("a notice no message carried for a week is dropped, also from the file", async () => {
    const { dir, events } = store();
    await events.add("agent:main:main", "old", { contextKey: "k1" });
    clock += MAX_EVENT_AGE_MS + 1;
    await events.add("agent:main:main", "new", { contextKey: "k2" });
    expect(events.take("agent:main:main", undefined).map((e) => e.text)).toEqual(["new"]);
    await events.add("agent:main:other", "old too", { contextKey: "k3" });
    clock += MAX_EVENT_AGE_MS + 1;
    events.close();
    open.pop();
    expect(store(dir).events.waitingFor("agent:main:other")).toEqual([]);
  });
});

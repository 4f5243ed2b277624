import { describe, expect, it } from "vitest";
import { SessionCache } from "../../../src/conversations/session-cache.js";

describe("SessionCache", () => {
  it("serves a value only for the session id it was stored under", () => {
    const cache = new SessionCache<string>(4);
    cache.set("agent:main:main", "s1", "one");
    expect(cache.get("agent:main:main", "s1")).toBe("one");
    expect(cache.peek("agent:main:main", "s1")).toBe("one");
    // A reset gave the session a new id: the old value is dropped, not served.
    expect(cache.get("agent:main:main", "s2")).toBeUndefined();
    expect(cache.get("agent:main:main", "s1")).toBeUndefined();
  });

  it("drops a stale value on peek, and on peek of a deleted session", () => {
    const cache = new SessionCache<string>(4);
    cache.set("k", "s1", "one");
    expect(cache.peek("k", undefined)).toBeUndefined();
    expect(cache.get("k", "s1")).toBeUndefined();
  });

  it("lets go of the least recently used session past its size", () => {
    const cache = new SessionCache<number>(2);
    cache.set("a", "1", 1);
    cache.set("b", "1", 2);
    cache.get("a", "1"); // a is now the most recent
    cache.set("c", "1", 3);
    expect(cache.get("b", "1")).toBeUndefined();
    expect(cache.get("a", "1")).toBe(1);
    expect(cache.get("c", "1")).toBe(3);
    cache.delete("a");
    expect(cache.get("a", "1")).toBeUndefined();
  });
});

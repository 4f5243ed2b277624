import { describe, expect, it } from "vitest";
import { memoizeRecent } from "../../../ui/src/recent-memo.js";

describe("memoizeRecent", () => {
  const counting = () => {
    const calls: string[] = [];
    const make = (key: string) => {
      calls.push(key);
      return `<p>${key}</p>`;
    };
    return { calls, make };
  };

  it("makes a value once per key while the key is among the most recently used", () => {
    const { calls, make } = counting();
    const render = memoizeRecent(make, 3);
    expect(render("a")).toBe("<p>a</p>");
    expect(render("b")).toBe("<p>b</p>");
    expect(render("a")).toBe("<p>a</p>");
    expect(render("b")).toBe("<p>b</p>");
    expect(calls).toEqual(["a", "b"]);
  });

  it("drops the least recently used key past the capacity, and a used key counts as recent", () => {
    const { calls, make } = counting();
    const render = memoizeRecent(make, 2);
    render("a");
    render("b");
    render("a"); // a is now more recent than b
    render("c"); // drops b
    render("a");
    expect(calls).toEqual(["a", "b", "c"]);
    render("b");
    expect(calls).toEqual(["a", "b", "c", "b"]);
  });

  it("remembers values that are falsy", () => {
    let calls = 0;
    const render = memoizeRecent(() => {
      calls += 1;
      return "";
    }, 2);
    render("x");
    render("x");
    expect(calls).toBe(1);
  });

  it("rejects a capacity that is not a positive integer", () => {
    expect(() => memoizeRecent((k) => k, 0)).toThrow(/positive integer/);
    expect(() => memoizeRecent((k) => k, 1.5)).toThrow(/positive integer/);
  });
});

import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/validate.js";
import { withSystemEventLines } from "../../../src/conversations/system-event-lines.js";

const event = (text: string, at: number) => ({ id: text, sessionKey: "agent:main:main", text, contextKey: text, at });

describe("withSystemEventLines", () => {
  it("one System line per notice, stamped to the second in the user's zone, then a blank line and the message", () => {
    const { config } = validateConfig({ agents: { defaults: { userTimezone: "Asia/Shanghai" } } }, {});
    const at = Date.UTC(2026, 2, 1, 16, 32, 44);
    expect(withSystemEventLines("hello", [event("Discord reaction added: ✅", at), event("two\nlines", at + 1000)], config)).toBe(
      ["System: [2026-03-02 00:32:44 GMT+8] Discord reaction added: ✅", "System: [2026-03-02 00:32:45 GMT+8] two", "System: lines", "", "hello"].join("\n"),
    );
  });

  it("UTC is written GMT", () => {
    const { config } = validateConfig({ agents: { defaults: { userTimezone: "UTC" } } }, {});
    expect(withSystemEventLines("hi", [event("n", Date.UTC(2026, 0, 2, 3, 4, 5))], config)).toBe("System: [2026-01-02 03:04:05 GMT] n\n\nhi");
  });

  it("no notices: the message as it was", () => {
    const { config } = validateConfig({}, {});
    expect(withSystemEventLines("hello", [], config)).toBe("hello");
  });
});

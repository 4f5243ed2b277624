import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";
import { effectiveResponseUsage, parseResponseUsage, replyUsageFooter, usageFooter, withFooter } from "../../../src/conversations/response-usage.js";

const config = (responseUsage?: unknown) => validateConfig(responseUsage === undefined ? {} : { messages: { responseUsage } }, {}).config;
const usage = { input: 1234, output: 56, cacheRead: 0, cacheWrite: 0 };

describe("response usage footers", () => {
  it("reads OpenClaw's words for the three modes", () => {
    expect(["off", "no", "0", "disabled"].map(parseResponseUsage)).toEqual(["off", "off", "off", "off"]);
    expect(["on", "yes", "tokens", "MIN"].map(parseResponseUsage)).toEqual(["tokens", "tokens", "tokens", "tokens"]);
    expect(["full", "session"].map(parseResponseUsage)).toEqual(["full", "full"]);
    expect(parseResponseUsage("sometimes")).toBeUndefined();
  });

  it("the session's choice, else the channel's configured mode, else default, else off", () => {
    const perChannel = config({ default: "tokens", telegram: "full" });
    expect(effectiveResponseUsage(undefined, config(), "telegram")).toBe("off");
    expect(effectiveResponseUsage(undefined, config("on"), "slack")).toBe("tokens");
    expect(effectiveResponseUsage(undefined, perChannel, "telegram")).toBe("full");
    expect(effectiveResponseUsage(undefined, perChannel, "webchat")).toBe("tokens");
    expect(effectiveResponseUsage("off", perChannel, "telegram")).toBe("off");
  });

  it("formats tokens, cache and (full, priced) cost; nothing for off or a run without tokens", () => {
    expect(usageFooter("tokens", usage, 0.5)).toBe("Usage: 1.2k in / 56 out");
    expect(usageFooter("full", { ...usage, cacheRead: 900 }, 0.0042)).toBe("Usage: 1.2k in / 56 out · cache 900 cached / 0 new · est $0.0042");
    expect(usageFooter("full", usage, undefined)).toBe("Usage: 1.2k in / 56 out");
    expect(usageFooter("off", usage, 1)).toBeUndefined();
    expect(usageFooter("tokens", { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, undefined)).toBeUndefined();
  });

  it("goes under the last text of the reply; a reply without text gets none", () => {
    expect(withFooter([{ text: "one" }, { text: "two" }, { text: " " }], "F")).toEqual([{ text: "one" }, { text: "two\nF" }, { text: " " }]);
    expect(withFooter([{ text: "ends\n" }], "F")).toEqual([{ text: "ends\nF" }]);
    expect(withFooter([], "F")).toEqual([]);
  });

  it("only replies to chat messages (a channel's, chat.send's as webchat) of turns that ended well carry it", () => {
    const on = config({ default: "tokens", webchat: "off" });
    const turn = { method: "channel", channel: "telegram", sessionValue: undefined, ok: true };
    expect(replyUsageFooter(turn, on, usage, undefined)).toBe("Usage: 1.2k in / 56 out");
    expect(replyUsageFooter({ ...turn, ok: false }, on, usage, undefined)).toBeUndefined();
    expect(replyUsageFooter({ ...turn, method: "chat.send", channel: undefined }, on, usage, undefined)).toBeUndefined();
    expect(replyUsageFooter({ ...turn, method: "chat.send", channel: undefined, sessionValue: "tokens" }, on, usage, undefined)).toBe("Usage: 1.2k in / 56 out");
    for (const method of ["agent", "http", "cron", undefined]) expect(replyUsageFooter({ ...turn, method, sessionValue: "full" }, on, usage, undefined)).toBeUndefined();
  });
});

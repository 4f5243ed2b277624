import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/index.js";
import { resolveSendPolicy } from "../../../src/sessions/send-policy.js";

const withPolicy = (sendPolicy: unknown) => validateConfig({ session: { sendPolicy } }, {}).config;

describe("resolveSendPolicy", () => {
  it("allows everything without session.sendPolicy", () => {
    expect(resolveSendPolicy(validateConfig({}, {}).config, { sessionKey: "agent:main:telegram:group:-1" })).toBe("allow");
  });

  it("the session's own choice wins over every rule", () => {
    const config = withPolicy({ default: "deny" });
    expect(resolveSendPolicy(config, { sessionKey: "agent:main:main", entry: { sendPolicy: "allow" } })).toBe("allow");
    expect(resolveSendPolicy(validateConfig({}, {}).config, { sessionKey: "agent:main:main", entry: { sendPolicy: "deny" } })).toBe("deny");
  });

  it("matches channel and chat type given by the caller, else read from the session row or its key", () => {
    const config = withPolicy({ rules: [{ action: "deny", match: { channel: "Discord", chatType: "group" } }] });
    expect(resolveSendPolicy(config, { sessionKey: "agent:main:x", channel: "discord", chatType: "group" })).toBe("deny");
    expect(resolveSendPolicy(config, { sessionKey: "agent:main:x", channel: "discord", chatType: "direct" })).toBe("allow");
    expect(resolveSendPolicy(config, { sessionKey: "agent:main:discord:group:42" })).toBe("deny");
    expect(resolveSendPolicy(config, { sessionKey: "agent:main:main", entry: { lastChannel: "discord", chatType: "group" } })).toBe("deny");
    expect(resolveSendPolicy(config, { sessionKey: "agent:main:main", entry: { deliveryContext: { channel: "telegram" }, lastChannel: "discord", chatType: "group" } })).toBe(
      "allow",
    );
    // `dm` is OpenClaw's older name of a direct chat.
    expect(resolveSendPolicy(withPolicy({ rules: [{ action: "deny", match: { chatType: "direct" } }] }), { sessionKey: "agent:main:x", chatType: "dm" })).toBe("deny");
  });

  it("keyPrefix matches the key with or without agent:<id>:, rawKeyPrefix only the whole key", () => {
    const scoped = withPolicy({ rules: [{ action: "deny", match: { keyPrefix: "cron:" } }] });
    expect(resolveSendPolicy(scoped, { sessionKey: "agent:main:cron:nightly" })).toBe("deny");
    expect(resolveSendPolicy(scoped, { sessionKey: "agent:main:main" })).toBe("allow");
    const raw = withPolicy({ rules: [{ action: "deny", match: { rawKeyPrefix: "cron:" } }] });
    expect(resolveSendPolicy(raw, { sessionKey: "agent:main:cron:nightly" })).toBe("allow");
    expect(resolveSendPolicy(withPolicy({ rules: [{ action: "deny", match: { rawKeyPrefix: "AGENT:OPS:" } }] }), { sessionKey: "agent:ops:main" })).toBe("deny");
  });

  it("the first deny wins; an allow rule that matched beats a deny default", () => {
    const config = withPolicy({
      default: "deny",
      rules: [
        { action: "allow", match: { channel: "telegram" } },
        { action: "deny", match: { chatType: "group" } },
      ],
    });
    expect(resolveSendPolicy(config, { sessionKey: "k", channel: "telegram", chatType: "direct" })).toBe("allow");
    expect(resolveSendPolicy(config, { sessionKey: "k", channel: "telegram", chatType: "group" })).toBe("deny");
    expect(resolveSendPolicy(config, { sessionKey: "k", channel: "slack", chatType: "direct" })).toBe("deny");
  });

  it("a rule without an action or with an unknown chat type is refused with the key's path", () => {
    expect(() => withPolicy({ rules: [{ match: { channel: "telegram" } }] })).toThrow("session.sendPolicy.rules[0].action: required");
    expect(() => withPolicy({ rules: [{ action: "deny", match: { chatType: "room" } }] })).toThrow("session.sendPolicy.rules[0].match.chatType");
  });
});

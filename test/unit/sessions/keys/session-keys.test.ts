import { describe, expect, it } from "vitest";
import {
  buildChannelSessionKey,
  buildMainSessionKey,
  buildOpenAiUserSessionKey,
  buildOpenResponsesUserSessionKey,
  isCanonicalSessionKey,
  normalizeSessionKey,
  parseSessionKey,
  SessionKeyError,
  type ChannelSessionKeyParams,
} from "../../../../src/sessions/keys/index.js";

describe("main and bare keys", () => {
  it("builds agent:<id>:<mainKey>", () => {
    expect(buildMainSessionKey("Main")).toBe("agent:main:main");
    expect(buildMainSessionKey("ops", "Home")).toBe("agent:ops:home");
  });

  it("scopes bare keys to the default agent and lower-cases them", () => {
    expect(normalizeSessionKey("main", "main")).toBe("agent:main:main");
    expect(normalizeSessionKey("  OpenAI-User:Bob ", "Ops")).toBe("agent:ops:openai-user:bob");
    expect(normalizeSessionKey("cron:nightly", "main")).toBe("agent:main:cron:nightly");
  });

  it("keeps the agent named in an agent: key", () => {
    expect(normalizeSessionKey("AGENT:Support:Telegram:Group:-100123", "main")).toBe("agent:support:telegram:group:-100123");
  });

  it("maps a bare main to the configured mainKey", () => {
    expect(normalizeSessionKey("main", "main", { mainKey: "home" })).toBe("agent:main:home");
  });

  it("parses canonical keys", () => {
    expect(parseSessionKey("agent:main:telegram:group:-1:topic:42")).toEqual({ agentId: "main", rest: "telegram:group:-1:topic:42" });
    expect(isCanonicalSessionKey("agent:main:main")).toBe(true);
    expect(isCanonicalSessionKey("main")).toBe(false);
    expect(() => parseSessionKey("main")).toThrow(/not agent-scoped/);
    expect(() => parseSessionKey("agent:main")).toThrow(SessionKeyError);
  });
});

describe("hostile keys are refused with a reason", () => {
  const cases: [string, string, RegExp][] = [
    ["empty", "   ", /empty/],
    ["path traversal", "../../x", /"\.\." path segment/],
    ["traversal in an agent key", "agent:main:../../etc", /path segment/],
    ["traversal as agent id", "agent:..:main", /path segment|agent id/],
    ["slash in agent id", "agent:a/b:main", /agent id/],
    ["NUL", "main\u0000x", /control character/],
    ["newline", "a\nb", /control character/],
    ["backslash", "a\\b", /backslash/],
    ["10,000 chars", "x".repeat(10_000), /limit is 512/],
    ["empty part", "agent:main::x", /empty part/],
    ["trailing colon", "openai-user:", /empty part/],
  ];
  for (const [name, raw, message] of cases) {
    it(name, () => {
      expect(() => normalizeSessionKey(raw, "main")).toThrow(SessionKeyError);
      expect(() => normalizeSessionKey(raw, "main")).toThrow(message);
    });
  }

  it("counts the limit on the whole scoped key", () => {
    expect(normalizeSessionKey("x".repeat(400), "main")).toHaveLength(411);
    expect(() => normalizeSessionKey("x".repeat(505), "main")).toThrow(/limit is 512/);
  });

  it("refuses a hostile default agent id", () => {
    expect(() => normalizeSessionKey("main", "../evil")).toThrow(/agent id/);
  });
});

describe("channel session keys (reference §7.3)", () => {
  const dm = (dmScope: ChannelSessionKeyParams["dmScope"], extra: Partial<ChannelSessionKeyParams> = {}) =>
    buildChannelSessionKey({ agentId: "Main", channel: "Telegram", chatType: "direct", peerId: "12345", dmScope, ...extra });

  it("DMs under every dmScope", () => {
    expect(dm("main")).toBe("agent:main:main");
    expect(dm("main", { mainKey: "home" })).toBe("agent:main:home");
    expect(dm("per-peer")).toBe("agent:main:direct:12345");
    expect(dm("per-channel-peer")).toBe("agent:main:telegram:direct:12345");
    expect(dm("per-account-channel-peer")).toBe("agent:main:telegram:default:direct:12345");
    expect(dm("per-account-channel-peer", { accountId: "Bot2" })).toBe("agent:main:telegram:bot2:direct:12345");
  });

  it("groups and channels ignore dmScope", () => {
    for (const dmScope of ["main", "per-peer", "per-channel-peer", "per-account-channel-peer"] as const) {
      expect(buildChannelSessionKey({ agentId: "main", channel: "telegram", chatType: "group", peerId: "-1001234567890", dmScope })).toBe(
        "agent:main:telegram:group:-1001234567890",
      );
      expect(buildChannelSessionKey({ agentId: "main", channel: "discord", chatType: "channel", peerId: "987654321", dmScope })).toBe("agent:main:discord:channel:987654321");
    }
  });

  it("threads and Telegram forum topics", () => {
    expect(buildChannelSessionKey({ agentId: "main", channel: "telegram", chatType: "group", peerId: "-100", threadId: 42, dmScope: "main" })).toBe(
      "agent:main:telegram:group:-100:topic:42",
    );
    expect(buildChannelSessionKey({ agentId: "main", channel: "slack", chatType: "channel", peerId: "C123", threadId: "1700000000.000100", dmScope: "main" })).toBe(
      "agent:main:slack:channel:c123:thread:1700000000.000100",
    );
    expect(buildChannelSessionKey({ agentId: "main", channel: "discord", chatType: "direct", peerId: "u1", threadId: "t9", dmScope: "per-channel-peer" })).toBe(
      "agent:main:discord:direct:u1:thread:t9",
    );
  });

  it("groupScope main folds groups into the main session", () => {
    expect(buildChannelSessionKey({ agentId: "main", channel: "telegram", chatType: "group", peerId: "-100", dmScope: "per-peer", groupScope: "main" })).toBe("agent:main:main");
  });

  it("identityLinks give one person one session across channels (not for dmScope main)", () => {
    const identityLinks = { alice: ["telegram:12345", "discord:999"] };
    expect(dm("per-channel-peer", { identityLinks })).toBe("agent:main:telegram:direct:alice");
    expect(buildChannelSessionKey({ agentId: "main", channel: "discord", chatType: "direct", peerId: "999", dmScope: "per-peer", identityLinks })).toBe("agent:main:direct:alice");
    expect(dm("main", { identityLinks })).toBe("agent:main:main");
  });

  it("OpenAI and OpenResponses user keys", () => {
    expect(buildOpenAiUserSessionKey("main", "Bob")).toBe("agent:main:openai-user:bob");
    expect(buildOpenResponsesUserSessionKey("ops", "bob@example.com")).toBe("agent:ops:openresponses-user:bob@example.com");
  });

  it("refuses hostile parts", () => {
    expect(() => dm("per-peer", { peerId: "../../x" })).toThrow(SessionKeyError);
    expect(() => dm("per-peer", { peerId: "a\u0000b" })).toThrow(/control character/);
    expect(() => dm("per-channel-peer", { channel: "tele:gram" })).toThrow(/must not contain ":"/);
    expect(() => dm("per-peer", { peerId: "" })).toThrow(/empty/);
    expect(() => buildOpenAiUserSessionKey("main", "u".repeat(600))).toThrow(/limit/);
  });
});

describe("parsing a key again", () => {
  it("gives the same frozen result, and refuses a bad key every time", () => {
    const first = parseSessionKey("agent:Ops:Telegram:Direct:42");
    expect(first).toEqual({ agentId: "ops", rest: "telegram:direct:42" });
    expect(parseSessionKey("agent:Ops:Telegram:Direct:42")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    for (let i = 0; i < 2; i += 1) expect(() => parseSessionKey("agent:ops::x")).toThrow(SessionKeyError);
  });
});

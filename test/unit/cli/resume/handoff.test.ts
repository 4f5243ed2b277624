import { describe, expect, it } from "vitest";
import { decodeResumeHandoff, encodeResumeHandoff, INVALID_HANDOFF } from "../../../../src/cli/resume/handoff.js";

const encode = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value), "utf8").toString("base64url");

describe("the --handoff payload", () => {
  it("decodes OpenClaw's format: unpadded URL-safe base64 of {version:1, sessionKey, gatewayUrl}", () => {
    // A payload built by hand the way the Control UI builds it, a base path included.
    const payload = encode({ version: 1, sessionKey: "agent:main:bugfix", gatewayUrl: "wss://gateway.example.com/openclaw" });
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeResumeHandoff(payload)).toEqual({ version: 1, sessionKey: "agent:main:bugfix", gatewayUrl: "wss://gateway.example.com/openclaw" });
    expect(decodeResumeHandoff(encodeResumeHandoff("agent:work:main", "ws://127.0.0.1:18789"))).toEqual({
      version: 1,
      sessionKey: "agent:work:main",
      gatewayUrl: "ws://127.0.0.1:18789",
    });
  });

  it("refuses a payload that is not exactly the canonical encoding", () => {
    const good = encodeResumeHandoff("agent:main:bugfix", "ws://127.0.0.1:18789");
    for (const bad of ["", `${good}=`, `${good}==`, `${good.slice(0, 10)}+${good.slice(10)}`, `${good.slice(0, -1)}!`, good.slice(0, -3), "x".repeat(4097)]) {
      expect(() => decodeResumeHandoff(bad), bad.slice(0, 40)).toThrow(INVALID_HANDOFF);
    }
  });

  it("refuses other JSON: wrong version, missing or extra keys, wrong types, not an object, invalid UTF-8", () => {
    const cases: unknown[] = [
      { version: 2, sessionKey: "agent:main:x", gatewayUrl: "ws://h:1" },
      { version: "1", sessionKey: "agent:main:x", gatewayUrl: "ws://h:1" },
      { version: 1, sessionKey: "agent:main:x" },
      { version: 1, sessionKey: "agent:main:x", gatewayUrl: "ws://h:1", token: "t" },
      { version: 1, sessionKey: 5, gatewayUrl: "ws://h:1" },
      [1, "agent:main:x", "ws://h:1"],
      "not json",
      null,
    ];
    for (const value of cases) expect(() => decodeResumeHandoff(encode(value)), JSON.stringify(value)).toThrow(INVALID_HANDOFF);
    expect(() => decodeResumeHandoff(Buffer.from([0xff, 0xfe, 0x7b]).toString("base64url"))).toThrow(INVALID_HANDOFF);
  });

  it("refuses a session key that is not agent-qualified, too long or holds a control character", () => {
    for (const sessionKey of ["main", "agent:main", "agent::x", `agent:main:${"x".repeat(600)}`, "agent:main:a\u001b[2Jb", ""]) {
      expect(() => decodeResumeHandoff(encodeResumeHandoff(sessionKey, "ws://127.0.0.1:1")), sessionKey.slice(0, 30)).toThrow(INVALID_HANDOFF);
    }
  });

  it("refuses a gateway URL that is not ws/wss, carries credentials, a query or a fragment, or is too long", () => {
    for (const gatewayUrl of [
      "http://127.0.0.1:1",
      "https://gateway.example.com",
      "ws://user:pass@127.0.0.1:1",
      "ws://user@127.0.0.1:1",
      "wss://gateway.example.com/?token=x",
      "wss://gateway.example.com/#x",
      `wss://gateway.example.com/${"a".repeat(2048)}`,
      "not a url",
      "",
    ]) {
      expect(() => decodeResumeHandoff(encodeResumeHandoff("agent:main:x", gatewayUrl)), gatewayUrl.slice(0, 40)).toThrow(INVALID_HANDOFF);
    }
  });
});

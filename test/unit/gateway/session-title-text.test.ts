import { describe, expect, it } from "vitest";
import type { TranscriptMessage } from "../../../src/agents/types.js";
import { deriveSessionTitle, topicTitle } from "../../../src/sessions/session-title.js";
import { sessionMessageText } from "../../../src/gateway/methods/session-message-text.js";

const user = (content: unknown) => ({ role: "user", content, timestamp: 0 }) as unknown as TranscriptMessage;
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }], timestamp: 0 }) as unknown as TranscriptMessage;

describe("sessionMessageText (the text a session row shows)", () => {
  it("leaves out control replies, also with edge punctuation, repeated or cut while streaming", () => {
    for (const text of ["NO_REPLY", " no_reply. ", "**NO_REPLY**", "NO_REPLY NO_REPLY", "ANNOUNCE_SKIP", "REPLY_SKIP!", "NO_REPLY NO_RE"]) {
      expect(sessionMessageText(assistant(text)), text).toBeUndefined();
    }
    for (const text of ["NO_REPLY needed here", "no reply", "NO_REPLY ANNOUNCE_SKIP done"]) {
      expect(sessionMessageText(assistant(text))?.text, text).toBe(text);
    }
  });

  it("drops a channel or timestamp envelope from a user message, and keeps other brackets", () => {
    expect(sessionMessageText(user("[Telegram Alice (@alice) id:1] hi"))?.text).toBe("hi");
    expect(sessionMessageText(user("[Mon 2026-01-05 10:00 UTC] hi"))?.text).toBe("hi");
    expect(sessionMessageText(user("[Alice] hi"))?.text).toBe("[Alice] hi");
    expect(sessionMessageText(user("[todo] hi"))?.text).toBe("[todo] hi");
  });

  it("joins text blocks, skips other blocks and messages without text, and flattens Markdown when asked", () => {
    expect(
      sessionMessageText(
        user([
          { type: "text", text: "one" },
          { type: "image", data: "", mimeType: "image/png" },
          { type: "text", text: "two" },
        ]),
      )?.text,
    ).toBe("one\ntwo");
    expect(sessionMessageText({ role: "toolResult", toolCallId: "t", content: "x", timestamp: 0 } as unknown as TranscriptMessage)).toBeUndefined();
    expect(sessionMessageText(user("   "))).toBeUndefined();
    const md = "# Title\n> quoted\n1. first _item_\n```js\ncode()\n```\n~~old~~ ![pic](a.png) `x`";
    expect(sessionMessageText(assistant(md), { flattenMarkdown: true })?.text).toBe("Title quoted first item old pic x");
    expect(sessionMessageText(assistant("snake_case_name"), { flattenMarkdown: true })?.text).toBe("snake_case_name");
  });

  it("cuts past 240 characters to 237 and `...`, never inside a surrogate pair", () => {
    expect(sessionMessageText(assistant("a".repeat(240)))?.text).toBe("a".repeat(240));
    expect(sessionMessageText(assistant("a".repeat(241)))?.text).toBe(`${"a".repeat(237)}...`);
    const cut = sessionMessageText(assistant(`${"a".repeat(236)}😀${"b".repeat(10)}`))!.text;
    expect(cut).toBe(`${"a".repeat(236)}...`);
  });
});

describe("deriveSessionTitle", () => {
  it("prefers label, display name, subject, then the first message's topic", () => {
    expect(deriveSessionTitle({ label: " Release ", displayName: "Shown", subject: "Chat" }, "fix it")).toBe("Release");
    expect(deriveSessionTitle({ displayName: "Shown", subject: "Chat" }, "fix it")).toBe("Shown");
    expect(deriveSessionTitle({ subject: "Chat" }, "fix it")).toBe("Chat");
    expect(deriveSessionTitle({}, "fix it")).toBe("Fix it");
    expect(deriveSessionTitle({}, undefined)).toBeUndefined();
  });

  it("takes the first task sentence, folds whitespace, and gives none for commands and host wrappers", () => {
    expect(topicTitle("hi there.   Please look.\nWrite a\tpoem about rain! Then stop.")).toBe("Write a poem about rain!");
    expect(topicTitle("what is the weather like")).toBe("What is the weather like");
    expect(topicTitle('"explain this" to me')).toBe('"explain this" to me');
    expect(topicTitle("/status")).toBeUndefined();
    expect(topicTitle("<environment_context>cwd</environment_context> fix")).toBeUndefined();
    expect(topicTitle("   ")).toBeUndefined();
  });

  it("keeps at most 60 characters, cut at a word in the last 40% and marked …", () => {
    expect(topicTitle("a".repeat(60))).toBe("A".concat("a".repeat(59)));
    expect(topicTitle("a".repeat(61))).toBe(`A${"a".repeat(58)}…`);
    expect(topicTitle(`${"word ".repeat(20)}`)).toBe(`${"Word word word word word word word word word word word".trim()}…`);
  });
});

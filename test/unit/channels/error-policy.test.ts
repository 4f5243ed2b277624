import { describe, expect, it } from "vitest";
import { ERROR_NOTICE_COOLDOWN_MS, errorPolicyFor, SentErrorNotices } from "../../../src/channels/outbound/error-policy.js";

describe("errorPolicy", () => {
  const account = { errorPolicy: "once", groups: { "-1": { errorPolicy: "silent", topics: { "7": { errorPolicy: "always" } } }, "*": {} } };

  it("is the topic's, else the group's, else the account's, else always; only on Telegram", () => {
    expect(errorPolicyFor("telegram", account, { chatId: "-1", threadId: "7" })).toBe("always");
    expect(errorPolicyFor("telegram", account, { chatId: "-1", threadId: "8" })).toBe("silent");
    expect(errorPolicyFor("telegram", account, { chatId: "-2" })).toBe("once");
    expect(errorPolicyFor("telegram", {}, { chatId: "5" })).toBe("always");
    expect(errorPolicyFor("discord", account, { chatId: "-1" })).toBe("always");
  });

  it("once: a notice goes to a chat again only after the cooldown; another text or chat goes at once", () => {
    const sent = new SentErrorNotices();
    expect(sent.admit("a", "⚠️ x", 0)).toBe(true);
    expect(sent.admit("a", "⚠️ x", ERROR_NOTICE_COOLDOWN_MS - 1)).toBe(false);
    expect(sent.admit("a", "⚠️ y", 1)).toBe(true);
    expect(sent.admit("b", "⚠️ x", 1)).toBe(true);
    expect(sent.admit("a", "⚠️ x", ERROR_NOTICE_COOLDOWN_MS)).toBe(true);
  });
});

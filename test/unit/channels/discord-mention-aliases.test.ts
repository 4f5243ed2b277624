import { describe, expect, it } from "vitest";
import { applyMentionAliases, readMentionAliases } from "../../../extensions/discord/mention-aliases.js";

const aliases = readMentionAliases({ SupportLead: "123456789012345678", "ops.lead": "234567890123456789" });

describe("Discord mentionAliases", () => {
  it("turns a known @handle into a mention, in any case, and names the users it may ping", () => {
    expect(applyMentionAliases("Ask @supportlead, or @ops.lead.", aliases)).toEqual({
      text: "Ask <@123456789012345678>, or <@234567890123456789>.",
      users: ["123456789012345678", "234567890123456789"],
    });
  });

  it("leaves unknown handles, @everyone, @here, e-mail addresses, existing mentions and code alone", () => {
    const text = "@nobody @everyone @here mail lead@SupportLead.io <@123456789012345678> `@SupportLead` ```\n@SupportLead\n```";
    expect(applyMentionAliases(text, aliases)).toEqual({ text, users: [] });
  });

  it("without aliases the text is untouched", () => {
    expect(applyMentionAliases("hi @SupportLead", readMentionAliases(undefined))).toEqual({ text: "hi @SupportLead", users: [] });
  });
});

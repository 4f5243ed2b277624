import { describe, expect, it } from "vitest";
import { DEFAULT_BOOTSTRAP_FILES } from "../../../src/agents/context/default-bootstrap-files.js";
import { parseIdentityMarkdown } from "../../../src/agents/context/identity-markdown.js";

describe("parseIdentityMarkdown", () => {
  it("reads Name, Emoji and Avatar lines in a list or not, any case, with or without emphasis; the first value wins", () => {
    const text = ["# IDENTITY.md", "", "- **Name:** Claw  the   Crab", "* _emoji_: 🦞", "AVATAR: `avatars/claw.png`", "- Name: Second", "- Vibe: calm"].join("\r\n");
    expect(parseIdentityMarkdown(text)).toEqual({ name: "Claw the Crab", emoji: "🦞", avatar: "avatars/claw.png" });
  });

  it("a URL's colons stay in the value", () => {
    expect(parseIdentityMarkdown("- Avatar: https://example.com/a.png")).toEqual({ avatar: "https://example.com/a.png" });
  });

  it("the seeded IDENTITY.md, whose labels have no values yet, states nothing", () => {
    const seeded = DEFAULT_BOOTSTRAP_FILES.find((f) => f.name === "IDENTITY.md")!.content;
    expect(parseIdentityMarkdown(seeded)).toEqual({});
  });
});

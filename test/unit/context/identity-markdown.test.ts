import { describe, expect, it } from "vitest";
import { DEFAULT_BOOTSTRAP_FILES } from "../../../src/agents/context/default-bootstrap-files.js";
import { mergeIdentityMarkdown, parseIdentityMarkdown } from "../../../src/agents/context/identity-markdown.js";

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

describe("mergeIdentityMarkdown", () => {
  it("fills the seeded file's empty lines and adds the missing ones after the describing lines", () => {
    const seeded = "# IDENTITY.md - your identity\n\n- Name:\n- What you are:\n- Vibe:\n- Emoji:\n\nFill this in.\n";
    expect(mergeIdentityMarkdown(seeded, { name: "Claw", emoji: "🦞", avatar: "avatars/claw.png" })).toBe(
      "# IDENTITY.md - your identity\n\n- Name: Claw\n- What you are:\n- Vibe:\n- Emoji: 🦞\n- Avatar: avatars/claw.png\n\nFill this in.\n",
    );
  });

  it("replaces a field's first line whatever its form, drops its duplicates, and leaves absent fields' lines alone", () => {
    const text = "# Me\r\n**Name:** Old\r\n* Emoji: 🐙\r\n- name: older\r\n";
    expect(mergeIdentityMarkdown(text, { name: "New  name" })).toBe("# Me\n- Name: New name\n* Emoji: 🐙\n");
  });

  it("puts new lines after the heading when nothing describes the agent, and starts a missing file with one", () => {
    expect(mergeIdentityMarkdown("# Title\n\nFree text.\n", { emoji: "🦞" })).toBe("# Title\n\n- Emoji: 🦞\nFree text.\n");
    expect(mergeIdentityMarkdown(undefined, { name: "Claw" })).toBe("# IDENTITY.md - your identity\n\n- Name: Claw\n");
    expect(parseIdentityMarkdown(mergeIdentityMarkdown("Notes only.", { name: "Claw", avatar: "a.png" }))).toEqual({ name: "Claw", avatar: "a.png" });
  });
});
